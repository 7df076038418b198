/** The lists of the home page: captured traces (`GET /api/traces`) and saved files (`GET /api/saved`). */
import { z } from 'zod';
import { SavedTraceFileSchema, TraceStatusSchema, TraceSummarySchema } from '../spans/trace-index-rows';

/** `interrupted` is paused, waiting for an answer; `answered`: resumes in other traces answered every interrupt. */
export const TraceListStatusSchema = TraceStatusSchema;

/**
 * One captured trace as listed: the store's summary without its link keys (they stay on the
 * server), with its status as the other traces show it, its title (scenario, flow or root
 * span name: lib/graph/trace-title.ts) and, for a resume, the session it belongs to.
 */
export const TraceListRowSchema = TraceSummarySchema.omit({ linkKeys: true }).extend({
  title: z.string(),
  /** Set on the later traces of a session (the resumes that answered it): the trace id of its first trace, under which the list nests them. */
  groupOf: z.string().optional(),
});
export type TraceListRow = z.infer<typeof TraceListRowSchema>;

export const TraceListResponseSchema = z.object({
  traces: z.array(TraceListRowSchema),
  /** With a page query: the `after` of the next page, absent on the last one. */
  next: z.string().optional(),
});
export type TraceListResponse = z.infer<typeof TraceListResponseSchema>;

/**
 * `GET /api/traces?…`: one page of captured traces from the store's indexes. With none of
 * these parameters the whole list is answered (what the home page reads).
 */
export const TraceListQuerySchema = z
  .object({
    /** Words that must all occur in the title, name, service, runtime, trace id or models (case-insensitive). */
    q: z.string().max(500).optional(),
    status: TraceListStatusSchema.optional(),
    service: z.string().max(500).optional(),
    runtime: z.string().max(100).optional(),
    /** Only traces started at or after this time (ms since the epoch). */
    since: z.coerce.number().finite().optional(),
    limit: z.coerce.number().int().min(1).max(1_000).optional(),
    /** The `next` of the page before: `<startTime>:<traceId>`. */
    after: z
      .string()
      .regex(/^-?\d+(\.\d+)?:[0-9a-f]{32}$/, 'expected the `next` of the page before (<startTime>:<traceId>)')
      .transform((text) => ({ startTime: Number(text.slice(0, text.lastIndexOf(':'))), traceId: text.slice(text.lastIndexOf(':') + 1) }))
      .optional(),
  })
  .strict();
export type TraceListQuery = z.output<typeof TraceListQuerySchema>;

/** One file of the saved folder; an unreadable one carries `error` (lib/store/saved-traces.ts). */
export const SavedFileRowSchema = SavedTraceFileSchema;
export type SavedFileRow = z.infer<typeof SavedFileRowSchema>;

export const SavedListResponseSchema = z.object({ files: z.array(SavedFileRowSchema) });
export type SavedListResponse = z.infer<typeof SavedListResponseSchema>;

const TraceIdSchema = z.string().regex(/^[0-9a-fA-F]{32}$/, 'expected a trace id of 32 hex characters');

/** `POST /api/traces/delete`: some captured traces, or all of them; saved files are never touched. */
export const TraceDeleteRequestSchema = z.union([
  z.object({ traceIds: z.array(TraceIdSchema).min(1).max(25_000) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type TraceDeleteRequest = z.infer<typeof TraceDeleteRequestSchema>;

export const TraceDeleteResponseSchema = z.object({ deleted: z.array(z.string()) });
export type TraceDeleteResponse = z.infer<typeof TraceDeleteResponseSchema>;
