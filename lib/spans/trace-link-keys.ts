/**
 * What ties one trace to the traces that resume it or that it resumes, in a form small
 * enough to keep in the trace index: per interrupted generate and per resume generate, who
 * sent it (resource), when, the tool requests of the interrupted model message, a hash of
 * the whole conversation, and the OTel links the resume carries. Computed by lib/graph
 * (`linkKeysOf`), matched by `matchResumes`; plain data here so the store can validate it.
 */
import { z } from 'zod';
import type { Span } from './span';

/** Who sent a span: `service.name` and, when the exporter set it, `service.instance.id`. */
export const LinkResourceSchema = z.object({ service: z.string().optional(), instance: z.string().optional() });
export type LinkResource = z.infer<typeof LinkResourceSchema>;

const GenerateKeyFields = {
  /** `${traceId}:${spanId}` of the top-level generate span (also its graph node id). */
  generateId: z.string(),
  traceId: z.string(),
  resource: LinkResourceSchema,
  /** Milliseconds since the epoch. */
  startTime: z.number(),
  /** The tool requests of the interrupted model message: name + ref + input, order-free. */
  requests: z.string(),
  /** A hash of the whole conversation up to the interrupt, metadata stripped; absent when not recorded. */
  history: z.string().optional(),
};

/** An interrupted generate: its history is what it sent plus the interrupted model message. */
export const InterruptedGenerateKeySchema = z.object({
  ...GenerateKeyFields,
  /**
   * The call's own spans do not say it paused, but the runtime may continue it (Google ADK's
   * `request_confirmation`: only the answering run shows the pause): it counts as paused once an
   * answer is tied to it, and never lists a trace as waiting.
   */
  silent: z.boolean().optional(),
});
export type InterruptedGenerateKey = z.infer<typeof InterruptedGenerateKeySchema>;

/** A resume generate: its history is the messages it was called with. */
export const ResumeGenerateKeySchema = z.object({
  ...GenerateKeyFields,
  /** Generates this resume names with an OTel span link (Loopscope-started resumes always do). */
  links: z.array(z.string()).optional(),
  /** The link says "this answers that interrupt" explicitly (Loopscope's link attribute), so it is never overruled by content. */
  authoritative: z.boolean().optional(),
});
export type ResumeGenerateKey = z.infer<typeof ResumeGenerateKeySchema>;

export const TraceLinkKeysSchema = z.object({
  interrupted: z.array(InterruptedGenerateKeySchema),
  resumes: z.array(ResumeGenerateKeySchema),
});
export type TraceLinkKeys = z.infer<typeof TraceLinkKeysSchema>;

/**
 * The attribute Loopscope puts on the span link from a resume's root span to the
 * interrupted generate it answers (the OTel way to say "caused by"; any OTel tool shows it).
 */
export const ANSWERS_LINK_ATTRIBUTE = 'loopscope.link.type';
export const ANSWERS_LINK_VALUE = 'answers-interrupt';
/** The link type of a replayed (or forked) call's root span to the recorded call it replays. */
export const REPLAYS_LINK_VALUE = 'replays';

/**
 * The links of a call's root span that may name the interrupt it answers: every link except
 * Loopscope's replay links (a replay names its recording, not an answer). `authoritative` when
 * Loopscope's answer link is among them.
 */
export function answerLinksOf(root: Span): { links: string[]; authoritative: boolean } {
  const candidates = root.links.filter((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] !== REPLAYS_LINK_VALUE);
  return {
    links: candidates.map((link) => `${link.traceId}:${link.spanId}`),
    authoritative: candidates.some((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === ANSWERS_LINK_VALUE),
  };
}

/** The traces the spans of one trace replay: named by Loopscope's replay links (`REPLAYS_LINK_VALUE`), in order, once each. */
export function replayedTraceIds(spans: readonly Span[]): string[] {
  const traceIds = new Set<string>();
  for (const span of spans) for (const link of span.links) if (link.attributes[ANSWERS_LINK_ATTRIBUTE] === REPLAYS_LINK_VALUE && link.traceId !== span.traceId) traceIds.add(link.traceId);
  return [...traceIds];
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

/** The call a key is made for: its graph id, trace and start (the loop model's `GenerateCall` has them). */
interface KeyedCall {
  id: string;
  traceId: string;
  startTime: number;
}

/**
 * An interrupted call's key, from what its dialect read: the requests key and the history hash
 * in the runtime's own terms; who sent it comes from the root span.
 */
export function interruptedGenerateKey(options: { call: KeyedCall; root: Span; requests: string; history?: string; silent?: boolean }): InterruptedGenerateKey {
  const { call, root, requests, history } = options;
  return { generateId: call.id, traceId: call.traceId, resource: resourceOf(root), startTime: call.startTime, requests, ...(history ? { history } : {}), ...(options.silent ? { silent: true } : {}) };
}

/** An answering call's key: as an interrupted call's, plus the root span's answer links (`answerLinksOf`). */
export function resumeGenerateKey(options: { call: KeyedCall; root: Span; requests: string; history?: string }): ResumeGenerateKey {
  const { links, authoritative } = answerLinksOf(options.root);
  const { call, root, requests, history } = options;
  return { ...interruptedGenerateKey({ call, root, requests, history }), ...(links.length > 0 ? { links } : {}), ...(authoritative ? { authoritative } : {}) };
}
