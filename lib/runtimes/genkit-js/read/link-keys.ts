/**
 * What ties a genkit interrupt to its answer (lib/graph/match-resumes.ts decides with these):
 * the interrupted requests (name, ref, input — never metadata: genkit rewrites it on resume,
 * bug 3), the whole conversation with metadata left out, the resource, and the resume's OTel
 * span links.
 */
import { canonicalJson, isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import { interruptedGenerateKey, resumeGenerateKey, type InterruptedGenerateKey, type ResumeGenerateKey } from '../../../spans/trace-link-keys';
import { ValueHash } from '../../../spans/value-hash';
import type { GenerateCall, ToolRequestData } from '../../../loop/loop-model';
import { inputMessages } from './message-parts';

/** The requests of one model message as one key: name, ref and input, order-free (never metadata: genkit rewrites it, bug 3). */
export function requestsKey(requests: readonly ToolRequestData[]): string {
  return requests
    .map((request) => `${request.name}#${request.ref ?? ''}#${canonicalJson(request.input)}`)
    .sort()
    .join('\n');
}

/**
 * The key of an interrupted generate, or undefined when it did not end in an interrupt.
 * `output` is its parsed recorded output: `request.messages` (what the last model call was
 * sent) plus `message` (the interrupted model message) is the history a resume continues.
 */
export function interruptedKeyOf(options: { call: GenerateCall; root: Span; output?: Record<string, unknown> }): InterruptedGenerateKey | undefined {
  const { call, root, output } = options;
  const lastTurn = call.turns[call.turns.length - 1];
  if (!lastTurn?.model || !lastTurn.toolCalls.some((toolCall) => toolCall.status === 'interrupted')) return undefined;
  const request = isObject(output?.request) ? output.request : undefined;
  const history = Array.isArray(request?.messages) && output?.message !== undefined ? conversationKey([...request.messages, output.message]) : undefined;
  return interruptedGenerateKey({ call, root, requests: requestsKey(lastTurn.model.toolRequests), history });
}

/** The key of a resume generate (`input` is its parsed recorded input), or undefined when it is not one. */
export function resumeKeyOf(options: { call: GenerateCall; root: Span; input?: Record<string, unknown> }): ResumeGenerateKey | undefined {
  const { call, root, input } = options;
  if (!call.resume || call.resume.resolutions.length === 0) return undefined;
  const history = input ? conversationKey(inputMessages(input)) : undefined;
  return resumeGenerateKey({ call, root, requests: requestsKey(call.resume.resolutions.map((resolution) => resolution.request)), history });
}

/**
 * A key for a whole conversation: role and parts of every message, with all metadata left
 * out — genkit rewrites part metadata on resume (`interrupt` → `resolvedInterrupt`, the
 * pendingOutput marker stripped: docs/interrupt-model.md §7 bug 3), so the history a resume
 * recorded and the history its interrupt produced differ only there. Hashed while walking the
 * messages (no canonical copy is built: histories repeat on every resume of a long file).
 * Undefined for no messages.
 */
export function conversationKey(messages: readonly unknown[]): string | undefined {
  if (messages.length === 0) return undefined;
  const hash = new ValueHash();
  for (const message of messages) {
    if (!isObject(message)) continue;
    hash.text('m');
    hash.value(message.role);
    const content = Array.isArray(message.content) ? message.content : [];
    for (const part of content) if (isObject(part)) hash.members(part, 'metadata');
  }
  return hash.digest();
}
