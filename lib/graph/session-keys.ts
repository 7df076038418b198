import { jsonAttributeOrUndefined } from '../trace/parse-json-attribute';
import type { Span } from '../trace/span';
import { classifySpan } from '../trace/classify-span';
import { canonicalJson, inputMessages, isObject, toolRequestParts } from './message-parts';

/**
 * What ties a trace to the traces it resumes or that resume it: the tool requests of its
 * interrupted final messages, and the requests its resume calls answered (name + ref +
 * input, as in `linkResumes`). Kept in the trace index, so a trace page finds its session
 * without reading every trace.
 */
export interface SessionKeys {
  /** One key per interrupted generate: the requests of its last model message. */
  interrupted: string[];
  /** One key per resume generate: the requests its history ended with. */
  resumes: string[];
}

function requestsKey(message: unknown): string | undefined {
  const requests = toolRequestParts(message).map(({ request }) => `${request.name}#${request.ref ?? ''}#${canonicalJson(request.input)}`);
  return requests.length > 0 ? requests.sort().join('\n') : undefined;
}

export function sessionKeysOf(spans: readonly Span[]): SessionKeys {
  const keys: SessionKeys = { interrupted: [], resumes: [] };
  for (const span of spans) {
    if (classifySpan(span).role !== 'generate') continue;
    const rawInput = span.attributes['genkit:input'];
    // Only top-level resume calls carry `resume`; nested turns never do.
    if (typeof rawInput === 'string' && rawInput.includes('"resume"')) {
      const input = jsonAttributeOrUndefined(rawInput);
      if (isObject(input) && input.resume !== undefined) {
        const messages = inputMessages(input);
        const key = requestsKey(messages[messages.length - 1]);
        if (key) keys.resumes.push(key);
      }
    }
    if (span.parentSpanId === undefined || classifySpan(span).outcome === 'interrupted') {
      const rawOutput = span.attributes['genkit:output'];
      if (typeof rawOutput !== 'string' || !rawOutput.includes('"finishReason":"interrupted"')) continue;
      const output = jsonAttributeOrUndefined(rawOutput);
      const key = isObject(output) ? requestsKey(output.message) : undefined;
      if (key && !keys.interrupted.includes(key)) keys.interrupted.push(key);
    }
  }
  return keys;
}

/**
 * The traces connected to `traceId` by interrupt → resume keys, itself included, in the
 * order of the given summaries. A resume answers an interrupt when their keys are equal.
 */
export function sessionOf(traceId: string, summaries: readonly { traceId: string; sessionKeys?: SessionKeys }[]): string[] {
  const byId = new Map(summaries.map((summary) => [summary.traceId, summary]));
  const found = new Set([traceId]);
  const queue = [traceId];
  while (queue.length > 0) {
    const current = byId.get(queue.shift() as string)?.sessionKeys;
    if (!current) continue;
    for (const other of summaries) {
      if (found.has(other.traceId) || !other.sessionKeys) continue;
      const linked =
        current.interrupted.some((key) => other.sessionKeys!.resumes.includes(key)) ||
        current.resumes.some((key) => other.sessionKeys!.interrupted.includes(key));
      if (linked) {
        found.add(other.traceId);
        queue.push(other.traceId);
      }
    }
  }
  return summaries.map((summary) => summary.traceId).filter((id) => found.has(id));
}
