import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { AttributeValue, Span } from '../../../spans/span';
import type { SpanClassification, SpanOutcome, SpanRole } from '../../../spans/span-classification';

const INTERRUPT_ERROR_TYPE = 'ToolInterruptError';

function stringAttribute(value: AttributeValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The role of a span from its `genkit:type` / `genkit:metadata:subtype` attributes. */
export function spanRole(span: Span): SpanRole {
  const type = stringAttribute(span.attributes['genkit:type']);
  const subtype = stringAttribute(span.attributes['genkit:metadata:subtype']);
  // A generate run directly is `util`; run through genkit's reflection API it is an
  // `action` whose subtype is `util`.
  if (type === 'util' && (span.attributes['genkit:name'] ?? span.name) === 'generate') return 'generate';
  if (type === 'util') return 'other';
  if (type === 'action' && subtype === 'util') return 'generate';
  if (type === 'action' && subtype === 'model') return 'model';
  // `tool.v2`: genkit's newer tool actions (multipart tools in JS; every tool of genkit Go 1.4).
  if (type === 'action' && (subtype === 'tool' || subtype === 'tool.v2')) return 'tool';
  if (type === 'flow' || (type === 'action' && subtype === 'flow')) return 'flow';
  return 'other';
}

function exceptionEvent(span: Span) {
  return span.events.find((event) => event.name === 'exception');
}

/** True when the span is a tool call that ended in `ctx.interrupt()` / a `defineInterrupt` tool. */
export function isInterruptSpan(span: Span): boolean {
  if (span.attributes['genkit:metadata:interrupt'] !== undefined) return true;
  const event = exceptionEvent(span);
  return event !== undefined && event.attributes['exception.type'] === INTERRUPT_ERROR_TYPE;
}

/**
 * True when a generate span's output says `finishReason: "interrupted"`. A substring test,
 * not a parse: a generate's output repeats its whole request (history and tool schemas),
 * and classification runs on every span.
 */
function outputSaysInterrupted(span: Span): boolean {
  const output = span.attributes['genkit:output'];
  if (typeof output !== 'string') return generateFinishReason(span) === 'interrupted';
  // The top-level finishReason comes right after the message, before the repeated request.
  const marker = '"finishReason":"';
  const at = output.indexOf(marker);
  return at >= 0 && output.startsWith('interrupted"', at + marker.length);
}

/** The finish reason recorded in a generate span's output, if readable. */
export function generateFinishReason(span: Span): string | undefined {
  const output = jsonAttributeOrUndefined(span.attributes['genkit:output']);
  if (output && typeof output === 'object' && 'finishReason' in output) {
    const reason = (output as { finishReason?: unknown }).finishReason;
    return typeof reason === 'string' ? reason : undefined;
  }
  return undefined;
}

/** The attribute every span genkit records carries: its actions, flows and generate utility. */
export const GENKIT_TYPE_ATTRIBUTE = 'genkit:type';

/** True when genkit recorded the span (its actions, flows and generate utility all carry `genkit:type`). */
export function isGenkitSpan(span: Span): boolean {
  return span.attributes[GENKIT_TYPE_ATTRIBUTE] !== undefined;
}

/** Classifies one span in genkit's terms. Pure; compute once per span and keep the result. */
export function classifyGenkitSpan(span: Span): SpanClassification {
  const role = spanRole(span);
  const label = stringAttribute(span.attributes['genkit:name']) ?? span.name;
  const restarted = role === 'tool' && span.attributes['genkit:metadata:resumed'] !== undefined;
  const event = exceptionEvent(span);
  const exceptionType = stringAttribute(event?.attributes['exception.type']);

  let outcome: SpanOutcome;
  if (span.endTimeUnixNano === undefined) outcome = 'running';
  // isInterruptSpan, with the exception event found once.
  else if (span.attributes['genkit:metadata:interrupt'] !== undefined || exceptionType === INTERRUPT_ERROR_TYPE) outcome = 'interrupted';
  else if (span.status.code === 2 || span.attributes['genkit:state'] === 'error') outcome = 'error';
  else if (role === 'generate' && outputSaysInterrupted(span)) outcome = 'interrupted';
  else outcome = 'ok';

  const errorMessage =
    outcome === 'error'
      ? span.status.message || stringAttribute(event?.attributes['exception.message']) || exceptionType || 'failed without a message'
      : undefined;
  return { role, label, outcome, restarted, errorMessage, exceptionType };
}
