/**
 * A captured trace's session: the trace, the interrupted generates it resumed and the
 * resumes that answered it (other traces, linked by the store's index).
 */
import { z } from 'zod';
import { TraceListStatusSchema } from './trace-list';

/** Which resume answers which interrupt, as lib/graph/match-resumes.ts decided it over every captured trace. */
export const ResumeMatchSchema = z.object({
  resumeId: z.string(),
  interruptedId: z.string(),
  /**
   * `link`: the resume's OTel span link names the interrupted generate; `history`: its whole
   * recorded history equals the interrupted generate's history + output; `requests`: only the
   * interrupted tool requests (name, ref, input) are the same.
   */
  evidence: z.enum(['link', 'history', 'requests']),
  /** Other interrupted generates the same content could answer (the nearest few): the match is a guess among them. Empty when the content decided. */
  couldAlsoAnswer: z.array(z.string()),
  /** How many other interrupted generates it could answer in all (`couldAlsoAnswer` names at most three). */
  alternatives: z.number(),
});
export type ResumeMatch = z.infer<typeof ResumeMatchSchema>;

/** `GET /api/traces/{traceId}/session`. */
export const SessionResponseSchema = z.object({ traceIds: z.array(z.string()).min(1), matches: z.array(ResumeMatchSchema) });
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/**
 * `GET /api/traces/{traceId}/session/graph`: the session's Graph JSON, built on the server
 * with the matches above, and the traces it was built from. Generic in the graph type
 * (lib/graph's `RunGraph`, a layer above).
 */
export const SessionGraphResponseSchema = z.object({
  traceIds: z.array(z.string()).min(1),
  /** Spans in the whole session. */
  spanCount: z.number(),
  /** The asked-for trace as its own spans describe it (name and status, as the page's title shows them). */
  trace: z.object({ traceId: z.string(), name: z.string(), status: TraceListStatusSchema }),
  graph: z.unknown(),
});
export type SessionGraphResponse<Graph = unknown> = Omit<z.infer<typeof SessionGraphResponseSchema>, 'graph'> & { graph: Graph };
