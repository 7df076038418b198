/**
 * A Mastra run's and step's messages, read from Mastra's own attributes into the OTel GenAI
 * conventions' shapes. A run (`agent_run`) records its input (the prompt — or, for a run that
 * answers a pause, the answer: not a message) and its output (`{text}`, or `{status:
 * "suspended" | "aborted", reason, …}`: Mastra's own finish). A step (`model_step`) records the
 * messages it sent (`mastra.model_step.input`: earlier tool calls and results abbreviated to
 * `[tool: name]`, `[tool-result: name]`) and the model's answer (`mastra.model_step.output`:
 * `{text, toolCalls: [{toolCallId, toolName, args}]}`); its finish reason and model are on its
 * inference span (`gen_ai.response.finish_reasons`). A step its run paused in records no answer:
 * the calls it asked for are read from the tools it ran and the approvals it asked for
 * (mastra-pauses.ts).
 */
import { isObject } from '../../../spans/json-value';
import { compareNanos, type Span } from '../../../spans/span';
import type { LoopMessages } from '../../genai-loop/loop-flavor';
import { finishReasonsOf, GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import type { GenAiMessage, GenAiPart } from '../../otel-genai/read/genai-messages';
import type { OfferedTool } from '../../otel-genai/read/genai-tool-definitions';
import type { SpanIndex } from '../../../loop/span-index';
import { approvalOf } from './mastra-pauses';
import { descendantsOf, MASTRA, mastraType, recordedObject, recordedValue, runOf } from './mastra-spans';

/** A run's own finishes (`mastra.agent_run.output.status`), Mastra's words: the run stopped without a final answer. */
export const RUN_FINISHES: ReadonlySet<string> = new Set(['suspended', 'aborted']);

/** One part of an AI SDK / Mastra message's content as a conventions part. */
function partOf(part: unknown): GenAiPart | undefined {
  if (typeof part === 'string') return { type: 'text', content: part };
  if (!isObject(part) || typeof part.type !== 'string') return undefined;
  if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', content: part.text };
  if (part.type === 'tool-call') {
    return { type: 'tool_call', ...(typeof part.toolCallId === 'string' ? { id: part.toolCallId } : {}), ...(typeof part.toolName === 'string' ? { name: part.toolName } : {}), arguments: part.input ?? part.args };
  }
  if (part.type === 'tool-result') return { type: 'tool_call_response', ...(typeof part.toolCallId === 'string' ? { id: part.toolCallId } : {}), response: part.output ?? part.result };
  return { type: part.type, extra: { ...part } };
}

/** A `{role, content}` message (content: text or parts), as Mastra records the messages a step sent. */
function messageOf(value: unknown): GenAiMessage | undefined {
  if (!isObject(value) || typeof value.role !== 'string') return undefined;
  const content = Array.isArray(value.content) ? value.content : [value.content];
  return { role: value.role, parts: content.map(partOf).filter((part): part is GenAiPart => part !== undefined) };
}

/** The tool calls of a step's answer (`toolCalls: [{toolCallId, toolName, args}]`) as conventions parts. */
function toolCallParts(calls: unknown): GenAiPart[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isObject).map((call) => ({
    type: 'tool_call',
    ...(typeof call.toolCallId === 'string' ? { id: call.toolCallId } : {}),
    ...(typeof call.toolName === 'string' ? { name: call.toolName } : {}),
    arguments: call.args ?? call.input,
  }));
}

/** The tools a run was offered: Mastra records their names (`gen_ai.tool.definitions`: `["get_weather", …]`). */
function offeredNames(run: Span | undefined): Map<string, OfferedTool> | undefined {
  const names = recordedValue(run?.attributes[GEN_AI.toolDefinitions]);
  if (!Array.isArray(names)) return undefined;
  return new Map(names.flatMap((name) => (typeof name === 'string' ? [[name, { name }] as const] : isObject(name) && typeof name.name === 'string' ? [[name.name, { name: name.name }] as const] : [])));
}

/** A run's finish as Mastra recorded it (`suspended`, `aborted`), and its answer or the pause it stopped on. */
export function runOutput(run: Span): { finish?: string; output?: Record<string, unknown>; text?: string } {
  const output = recordedObject(run.attributes[MASTRA.runOutput]);
  const status = typeof output?.status === 'string' && RUN_FINISHES.has(output.status) ? output.status : undefined;
  return { ...(status ? { finish: status } : {}), ...(output ? { output } : {}), ...(typeof output?.text === 'string' ? { text: output.text } : {}) };
}

function runMessages(run: Span): LoopMessages {
  const input = recordedValue(run.attributes[MASTRA.runInput]);
  const { finish, text } = runOutput(run);
  // A prompt (text or messages) is the run's input; an answering run's answer object is none.
  const messages = typeof input === 'string' ? [{ role: 'user', parts: [{ type: 'text', content: input }] }] : Array.isArray(input) ? input.map(messageOf).filter((message): message is GenAiMessage => message !== undefined) : [];
  return {
    input: { messages },
    output: { messages: text !== undefined ? [{ role: 'assistant', parts: [{ type: 'text', content: text }] }] : [] },
    finishReasons: finish ? [finish] : [],
    tools: offeredNames(run),
  };
}

/** What a step's inference span recorded: the finish reason and the model. */
function inferenceOf(index: SpanIndex, step: Span): { finishReasons: string[]; model?: string } {
  const inference = index.childrenOf(step).find((child) => mastraType(child) === 'model_inference');
  if (!inference) return { finishReasons: [] };
  const model = stringAttribute(inference.attributes[GEN_AI.responseModel]) ?? stringAttribute(inference.attributes[GEN_AI.requestModel]);
  return { finishReasons: finishReasonsOf(inference.attributes[GEN_AI.finishReasons]), ...(model ? { model } : {}) };
}

/**
 * The calls a step its run paused in asked for (it records no answer): the tools it ran and the
 * approvals it asked for, in the order they started.
 */
function pausedStepCalls(index: SpanIndex, step: Span): GenAiPart[] {
  const calls: { start: string; part: GenAiPart }[] = [];
  for (const span of descendantsOf(index, step)) {
    const type = mastraType(span);
    if (type === 'tool_call' || type === 'mcp_tool_call') {
      const id = stringAttribute(span.attributes[GEN_AI.toolCallId]);
      calls.push({ start: span.startTimeUnixNano, part: { type: 'tool_call', ...(id ? { id } : {}), name: stringAttribute(span.attributes[GEN_AI.toolName]) ?? span.name, arguments: recordedValue(span.attributes[GEN_AI.toolArguments]) } });
    } else {
      const approval = approvalOf(span);
      if (approval) calls.push({ start: span.startTimeUnixNano, part: { type: 'tool_call', id: approval.toolCallId, name: approval.toolName, arguments: approval.args } });
    }
  }
  const seen = new Set<string>();
  return calls
    .sort((a, b) => compareNanos(a.start, b.start))
    .map((call) => call.part)
    .filter((part) => part.id === undefined || (!seen.has(part.id) && Boolean(seen.add(part.id))));
}

function stepMessages(step: Span, index?: SpanIndex): LoopMessages {
  const input = recordedValue(step.attributes[MASTRA.stepInput]);
  const output = recordedObject(step.attributes[MASTRA.stepOutput]);
  const parts: GenAiPart[] = [];
  if (typeof output?.text === 'string' && output.text !== '') parts.push({ type: 'text', content: output.text });
  parts.push(...(output ? toolCallParts(output.toolCalls) : index ? pausedStepCalls(index, step) : []));
  const inference = index ? inferenceOf(index, step) : { finishReasons: [] };
  return {
    input: { messages: Array.isArray(input) ? input.map(messageOf).filter((message): message is GenAiMessage => message !== undefined) : [] },
    output: { messages: parts.length > 0 ? [{ role: 'assistant', parts }] : [] },
    finishReasons: inference.finishReasons,
    ...(inference.model ? { model: inference.model } : {}),
    tools: index ? offeredNames(runOf(index, step)) : undefined,
  };
}

/** A run's or step's messages; other spans have none. `index`: the step's inference and tools are read from its spans. */
export function mastraMessagesOf(span: Span, index?: SpanIndex): LoopMessages {
  const type = mastraType(span);
  if (type === 'agent_run') return runMessages(span);
  if (type === 'model_step') return stepMessages(span, index);
  return { input: { messages: [] }, output: { messages: [] }, finishReasons: [] };
}

/** A step's model, for its model call: its inference span's, else the step's own model metadata. */
export function mastraModelOf(step: { span: Span; view: LoopMessages }): string | undefined {
  const metadata = recordedObject(step.span.attributes[MASTRA.modelMetadata]);
  return step.view.model ?? (typeof metadata?.modelId === 'string' ? metadata.modelId : undefined);
}
