/**
 * The recording a replay of genkit Go calls plays back: the genkit JS reader
 * (genkit-js/recording.ts: the same `genkit:*` attributes, the same message wire, and since
 * genkit Go 1.12 a resume recorded with `resume` as in JS) with genkit Go's differences, as
 * measured on the fixtures here:
 * - an interrupted tool span ends `genkit:state=error` with no interrupt attribute; the generate's
 *   output message (`metadata.interrupt` on the request) is the evidence, and holds the data;
 * - a `tool.v2` span records the multipart envelope (`{"output": …}`), not the tool's own output;
 * - a hold of the ToolApproval middleware (tool-approval.ts) is a span genkit Go makes for a tool
 *   that never ran: the replay's ToolApproval (the recorded `use`) holds it again, so it is no
 *   recorded tool run for a stub;
 * - genkit Go 1.4 recorded a generate's input as the model request (no model, no maxTurns, tools as
 *   definitions), not its GenerateActionOptions: such a recording is refused, since the call cannot
 *   be made again as it was.
 * A recording that cannot be replayed faithfully is refused naming the span: a turn with no model
 * span, a model response that is not a genkit response.
 */
import { LoopscopeError } from '../../../errors';
import { isObject, sameJson } from '../../../spans/json-value';
import { parseJsonAttribute } from '../../../spans/parse-json-attribute';
import { spanKey, type Span } from '../../../spans/span';
import { readGenkitRecording, type Recording, type RecordedToolExecution, type ResumeContinuation } from '../../genkit-js/read/recording';
import { toolRequestParts } from '../../genkit-js/read/message-parts';
import type { SpanIndex } from '../../../loop/span-index';
import { holdOf, toolApprovalsOf } from './tool-approval';
import { genkitGo } from './';

/** A turn that ran (it did not fail before its model call) must have its model span. */
function checkTurns(index: SpanIndex, spans: readonly Span[]): void {
  for (const span of spans) {
    if (index.classify(span).role !== 'generate' || span.status.code === 2) continue;
    const input = parseJsonAttribute(span.attributes['genkit:input']);
    // A resume's own generate resolves the answers and hands the model turn to the generate inside it.
    if (input.ok && isObject(input.value) && input.value.resume !== undefined) continue;
    if (index.childrenOf(span).some((child) => index.classify(child).role === 'model')) continue;
    throw new LoopscopeError(
      'FAILED_PRECONDITION',
      `The genkit Go generate span ${span.spanId} of trace ${span.traceId} ran a model turn, but the recording has no model span under it (a span lost on the way?): without the model's recorded answer it cannot be replayed.`,
    );
  }
}

/** Each recorded model response must be a genkit model response (an object with a message). */
function checkResponses(index: SpanIndex, spans: readonly Span[]): void {
  for (const span of spans) {
    const classification = index.classify(span);
    if (classification.role !== 'model' || classification.outcome === 'error') continue;
    const output = parseJsonAttribute(span.attributes['genkit:output']);
    const message = output.ok && isObject(output.value) ? output.value.message : undefined;
    const problem = !output.ok
      ? output.error
      : !isObject(output.value)
        ? 'it is not a JSON object'
        : !isObject(message)
          ? 'it has no message object'
          : !Array.isArray(message.content)
            ? 'its message has no content list'
            : undefined;
    if (problem) {
      throw new LoopscopeError('FAILED_PRECONDITION', `The model span ${span.spanId} (${classification.label}) of trace ${span.traceId} recorded a response that is not a genkit model response (genkit:output: ${problem}), so it cannot be replayed.`);
    }
  }
}

/** A Go tool execution as the replay plays it back: interrupts from the generate's message, outputs out of their envelope. */
function goExecution(options: { execution: RecordedToolExecution; span: Span | undefined; interruptedParts: ReturnType<typeof toolRequestParts> }): RecordedToolExecution {
  const { execution, span, interruptedParts } = options;
  if (execution.outcome.kind === 'error') {
    const interrupted = interruptedParts.find((part) => part.request.name === execution.name && sameJson(part.request.input, execution.input));
    if (interrupted) {
      const data = interrupted.metadata.interrupt;
      return { ...execution, outcome: { kind: 'interrupt', metadata: data === true ? undefined : data } };
    }
  }
  if (execution.outcome.kind === 'output' && span?.attributes['genkit:metadata:subtype'] === 'tool.v2' && isObject(execution.outcome.output)) {
    return { ...execution, outcome: { kind: 'output', output: execution.outcome.output.output } };
  }
  return execution;
}

/**
 * Reads the replayable chain of genkit Go calls (the genkit JS reader, then Go's differences above).
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay, a generate did not record its input, a turn has no model span or a recorded response is malformed.
 */
export function readGoRecording(options: { index: SpanIndex; continuation: (generateId: string) => ResumeContinuation | undefined }): Recording {
  const { index } = options;
  const goSpans = index.spans.filter((span) => genkitGo.claims(span));
  checkTurns(index, goSpans);
  checkResponses(index, goSpans);
  const recording = readGenkitRecording({ ...options, enclosed: genkitGo.enclosedByCall });
  const spans = new Map(index.spans.map((span) => [spanKey(span), span]));
  for (const step of recording.steps) {
    if (step.kind === 'generate' && typeof step.options.model !== 'string') {
      throw new LoopscopeError(
        'FAILED_PRECONDITION',
        `The genkit Go generate span ${step.spanId} of trace ${step.traceId} recorded a model request as its input, not the generate's options (no model, tools as definitions: genkit Go 1.4 wrote it so), so it cannot be replayed faithfully: record it with a genkit Go that records its generate options, as 1.12 does.`,
      );
    }
    const interruptedParts = step.outcome.kind === 'interrupted' ? toolRequestParts(step.outcome.message).filter((part) => part.metadata.interrupt !== undefined && part.metadata.interrupt !== false) : [];
    const executions = step.toolExecutions.map((execution) => goExecution({ execution, span: spans.get(spanKey(execution)), interruptedParts }));
    // A ToolApproval hold is the middleware's span for a tool that never ran: the replay's own
    // ToolApproval (the recorded `use`) holds it again, no stub is asked for it.
    const root = spans.get(spanKey(step));
    const approvals = root ? toolApprovalsOf(root) : [];
    step.toolExecutions = executions.filter((execution) => !(execution.outcome.kind === 'interrupt' && holdOf({ approvals, tool: execution.name, interruptMetadata: execution.outcome.metadata })));
  }
  return recording;
}
