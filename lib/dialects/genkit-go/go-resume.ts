/**
 * How genkit Go 1.4 records a resume (measured: lib/dialects/genkit-go/__fixtures__): its
 * generate is called with no `resume` option. genkit Go resolves the answers before the
 * generate starts, so the recorded input's history already ends with the answered turn — the
 * interrupted model message, each answered request marked `resolvedInterrupt`, then one tool
 * message marked `resumed: true` holding a response per request: `interruptResponse: true` for a
 * response part (respond), `source: "pending"` for a finished sibling reused, and the output of
 * the tool run again for a restart. That restarted run is a tool span in a trace of its own,
 * started before the generate's. What the restart resumed the tool with (`ToolContext.Resumed`)
 * is recorded nowhere.
 */
import { isObject, sameJson } from '../../trace/json-value';
import { jsonAttributeOrUndefined } from '../../trace/parse-json-attribute';
import { compareNanos, type Span } from '../../trace/span';
import type { ReadResume } from '../genkit-js/read-generate';
import { inputMessages, toolRequestParts } from '../genkit-js/message-parts';
import type { SpanIndex } from '../span-index';
import { GENKIT_GO_BUGS } from './known-bugs';

/** How long before its generate a restarted tool's own trace may start and still be its restart. */
const RESTART_WINDOW_NANOS = 5_000_000_000n;

function responsesOf(message: Record<string, unknown>): { name: string; ref?: string; output: unknown; metadata: Record<string, unknown> }[] {
  const content = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  return content.flatMap((part) => {
    const response = isObject(part.toolResponse) ? part.toolResponse : undefined;
    if (!response || typeof response.name !== 'string') return [];
    return [{ name: response.name, ref: typeof response.ref === 'string' ? response.ref : undefined, output: response.output, metadata: isObject(part.metadata) ? part.metadata : {} }];
  });
}

/** A Go tool span that is the root of a trace of its own (how genkit Go 1.4 records a restarted tool). */
export function isDetachedToolSpan(index: SpanIndex, span: Span): boolean {
  return span.parentSpanId === undefined && index.classify(span).role === 'tool';
}

/** The detached tool spans that ran a resume's restarts: same name, ended before the generate began, at most 5 s before. */
function restartedSpans(options: { index: SpanIndex; root: Span; names: string[] }): Span[] {
  const start = BigInt(options.root.startTimeUnixNano);
  const candidates = options.index.spans
    .filter((span) => isDetachedToolSpan(options.index, span) && options.names.includes(span.name))
    .filter((span) => {
      const end = BigInt(span.endTimeUnixNano ?? span.startTimeUnixNano);
      return end <= start && start - end <= RESTART_WINDOW_NANOS;
    })
    .sort((a, b) => compareNanos(b.startTimeUnixNano, a.startTimeUnixNano));
  const picked: Span[] = [];
  for (const name of options.names) {
    const found = candidates.find((span) => span.name === name && !picked.includes(span));
    if (found) picked.push(found);
  }
  return picked;
}

/** A genkit Go generate's resume, read into the shape genkit JS records (read-generate.ts), or none. */
export function readGoResume(index: SpanIndex, root: Span): ReadResume {
  const raw = root.attributes['genkit:input'];
  if (typeof raw === 'string' && !raw.includes('"resumed"')) return {};
  const input = jsonAttributeOrUndefined(raw);
  const messages = inputMessages(input);
  const last = messages.at(-1);
  const model = messages.at(-2);
  if (!isObject(input) || !last || !model || last.role !== 'tool' || model.role !== 'model' || !isObject(last.metadata) || !last.metadata.resumed) return {};
  const responses = responsesOf(last as Record<string, unknown>);
  const sameAs = (part: { request: { name: string; ref?: string } }) => (response: { name: string; ref?: string }) => response.name === part.request.name && (response.ref ?? '') === (part.request.ref ?? '');
  const respond: Record<string, unknown>[] = [];
  const restart: Record<string, unknown>[] = [];
  const modelContent = Array.isArray(model.content) ? structuredClone(model.content) : [];
  for (const part of toolRequestParts(model)) {
    const response = responses.find(sameAs(part));
    if (!response) continue;
    if (response.metadata.interruptResponse) {
      respond.push({ toolResponse: { name: response.name, ref: response.ref, output: response.output }, metadata: { interruptResponse: true } });
    } else if (response.metadata.source === 'pending') {
      // A sibling that finished in the interrupted turn: genkit's pendingOutput, reused.
      const inner = modelContent.find((candidate: unknown) => isObject(candidate) && isObject(candidate.toolRequest) && candidate.toolRequest.name === part.request.name && candidate.toolRequest.ref === part.request.ref);
      if (isObject(inner)) inner.metadata = { ...(isObject(inner.metadata) ? inner.metadata : {}), pendingOutput: response.output };
    } else if (part.metadata.resolvedInterrupt !== undefined) {
      restart.push({ toolRequest: { ...part.request }, metadata: { resumed: true } });
    }
  }
  // As genkit JS records a resume: the history up to the interrupted model message, the answers apart.
  const history = [...messages.slice(0, -2), { ...model, content: modelContent }];
  const restarted = restartedSpans({ index, root, names: restart.map((part) => (part.toolRequest as { name: string }).name) });
  const notes: string[] = [];
  // A restart with a new input (RestartOptions.ReplaceInput) shows only in the tool span's input.
  for (const part of restart) {
    const request = part.toolRequest as { name: string; input?: unknown };
    const ran = restarted.find((span) => span.name === request.name);
    const ranWith = ran ? jsonAttributeOrUndefined(ran.attributes['genkit:input']) : undefined;
    if (ran && ranWith !== undefined && !sameJson(ranWith, request.input)) {
      part.metadata = { resumed: true, replacedInput: request.input };
      part.toolRequest = { ...request, input: ranWith };
      notes.push(GENKIT_GO_BUGS.replaceInputKeepsHistory(request.name));
    }
  }
  return { input: { ...input, messages: history }, resume: { respond, restart }, restartedElsewhere: restarted, notes };
}

/**
 * True for a detached tool span that ran the restart of a later resume generate: it is drawn
 * inside that resume, not as a tool run on its own.
 */
export function isRestartOfLaterResume(index: SpanIndex, span: Span): boolean {
  if (!isDetachedToolSpan(index, span)) return false;
  const end = BigInt(span.endTimeUnixNano ?? span.startTimeUnixNano);
  return index.spans.some((candidate) => {
    if (candidate.parentSpanId !== undefined || index.classify(candidate).role !== 'generate' || candidate.traceId === span.traceId) return false;
    const start = BigInt(candidate.startTimeUnixNano);
    if (start < end || start - end > RESTART_WINDOW_NANOS) return false;
    return (readGoResume(index, candidate).restartedElsewhere ?? []).includes(span);
  });
}
