/**
 * The event stream (`GET /api/events`, server-sent events): one named SSE event per type,
 * its data the JSON of the event. Graph JSON is built by lib/graph, a layer above this one,
 * so the events that carry a graph are generic in it (`LiveEvent<RunGraph>` on both ends).
 */
import { z } from 'zod';
import type { Span } from '../spans/span';
import { RunnerPoolStatusSchema } from './runner-status';
import { RunSessionSchema } from './run-session';
import { SpanStartEventSchema } from './span-start';

/** Spans as lib/spans normalizes them; the server made them, the page only reads them. */
const SpanListSchema = z.array(z.custom<Span>((value) => typeof value === 'object' && value !== null, 'expected a span'));

export const LiveEventSchema = z.discriminatedUnion('type', [
  /** Spans stored for a trace (the batch that arrived, not the whole trace). */
  z.object({ type: z.literal('spans'), traceId: z.string(), spans: SpanListSchema }),
  /** A span started in a runner (shown as running until it ends). */
  z.object({ type: z.literal('span-start'), span: SpanStartEventSchema }),
  /** A run changed (status, pauses, traces, runner). */
  z.object({ type: z.literal('run'), run: RunSessionSchema }),
  /** The server rebuilt a run's Graph JSON from the spans it has so far (`version` grows per run). */
  z.object({ type: z.literal('graph'), runId: z.string(), version: z.number().int().nonnegative(), graph: z.unknown() }),
  /** Traces were stored or changed (the trace list is stale). */
  z.object({ type: z.literal('traces-changed'), traceIds: z.array(z.string()) }),
  /** The runner pool changed (its catalog is not in it: `catalogVersion` says when to read it again). */
  z.object({ type: z.literal('runner'), status: RunnerPoolStatusSchema }),
]);

type WireLiveEvent = z.infer<typeof LiveEventSchema>;
/** A run's Graph JSON, as the `graph` event and the run's graph route carry it. */
export type RunGraphEvent<Graph = unknown> = Omit<Extract<WireLiveEvent, { type: 'graph' }>, 'graph'> & { graph: Graph };
/** Everything a page can watch live. */
export type LiveEvent<Graph = unknown> = Exclude<WireLiveEvent, { type: 'graph' }> | RunGraphEvent<Graph>;
export type LiveEventType = LiveEvent['type'];

/** The SSE event names a page listens to (one per event type). */
export const LIVE_EVENT_TYPES = ['spans', 'span-start', 'run', 'graph', 'traces-changed', 'runner'] as const satisfies readonly LiveEventType[];
