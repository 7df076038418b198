import type { Span } from '../trace/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE, type InterruptedGenerateKey, type LinkResource, type ResumeGenerateKey } from '../trace/trace-link-keys';
import { conversationKey } from './conversation-key';
import { canonicalJson, inputMessages, isObject } from './message-parts';
import type { GenerateCall, ToolRequestData } from './run-graph';

/** The requests of one model message as one key: name, ref and input, order-free (never metadata: genkit rewrites it, bug 3). */
export function requestsKey(requests: readonly ToolRequestData[]): string {
  return requests
    .map((request) => `${request.name}#${request.ref ?? ''}#${canonicalJson(request.input)}`)
    .sort()
    .join('\n');
}

/** Who sent a span, for keeping unrelated services apart. */
export function resourceOf(span: Span): LinkResource {
  const service = span.resource['service.name'];
  const instance = span.resource['service.instance.id'];
  return {
    ...(typeof service === 'string' ? { service } : {}),
    ...(typeof instance === 'string' ? { instance } : {}),
  };
}

/** Same sender: the same service name, and the same instance when both name one. */
export function sameResource(a: LinkResource, b: LinkResource): boolean {
  return a.service === b.service && (a.instance === undefined || b.instance === undefined || a.instance === b.instance);
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
  return {
    generateId: call.id,
    traceId: call.traceId,
    resource: resourceOf(root),
    startTime: call.startTime,
    requests: requestsKey(lastTurn.model.toolRequests),
    ...(history ? { history } : {}),
  };
}

/** The key of a resume generate (`input` is its parsed recorded input), or undefined when it is not one. */
export function resumeKeyOf(options: { call: GenerateCall; root: Span; input?: Record<string, unknown> }): ResumeGenerateKey | undefined {
  const { call, root, input } = options;
  if (!call.resume || call.resume.resolutions.length === 0) return undefined;
  const history = input ? conversationKey(inputMessages(input)) : undefined;
  const links = root.links.map((link) => `${link.traceId}:${link.spanId}`);
  const authoritative = root.links.some((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === ANSWERS_LINK_VALUE);
  return {
    generateId: call.id,
    traceId: call.traceId,
    resource: resourceOf(root),
    startTime: call.startTime,
    requests: requestsKey(call.resume.resolutions.map((resolution) => resolution.request)),
    ...(history ? { history } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(authoritative ? { authoritative } : {}),
  };
}
