import type { CallReadFields } from '../../../loop/new-generate-call';
import type { ToolCall, Turn } from '../../../loop/loop-model';
import type { SpanClassification } from '../../../spans/span-classification';
import { messageText, type ReadMessages } from './genai-messages';

/** What a call span or a model call records that the call's outcome is read from. */
interface RecordedCall {
  finishReasons: readonly string[];
  model?: string;
  output: ReadMessages;
}

/**
 * The fields of a top-level call that every reader of the GenAI conventions reads the same way
 * (the AI SDK's and the agent frameworks'): its status (running, failed, paused by a call waiting
 * for an answer, or ok), the finish reason (the call span's, else its last model call's), the
 * error, the model, what is pending, and the final text. `paused` are the calls waiting.
 */
export function genAiCallFields(options: {
  running: boolean;
  failed: boolean;
  paused: readonly ToolCall[];
  classification: SpanClassification;
  call: RecordedCall;
  lastStep: RecordedCall | undefined;
  turns: readonly Turn[];
}): Pick<CallReadFields, 'status' | 'finishReason' | 'errorMessage' | 'errorStatus' | 'model' | 'pendingInterrupts' | 'text'> {
  const { classification, call, lastStep } = options;
  let status: CallReadFields['status'];
  if (options.running) status = 'running';
  else if (options.failed) status = 'error';
  else if (options.paused.length > 0) status = 'interrupted';
  else status = 'ok';
  return {
    status,
    finishReason: status === 'ok' || status === 'interrupted' ? (call.finishReasons[0] ?? lastStep?.finishReasons[0]) : undefined,
    errorMessage: status === 'error' ? classification.errorMessage : undefined,
    errorStatus: status === 'error' ? classification.exceptionType : undefined,
    model: call.model ?? options.turns.find((turn) => turn.model)?.model?.model,
    pendingInterrupts: options.paused.map((tool) => ({ name: tool.name, ...(tool.ref !== undefined ? { ref: tool.ref } : {}), input: tool.input })),
    text: status === 'ok' ? messageText(lastStep?.output.messages.at(-1)) : undefined,
  };
}
