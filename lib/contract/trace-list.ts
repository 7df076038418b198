/** The lists of the home page: captured traces (`GET /api/traces`) and saved files (`GET /api/saved`). */
import { z } from 'zod';
import { SavedTraceFileSchema, TraceStatusSchema, TraceSummarySchema } from '../trace/trace-index-rows';

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

export const TraceListResponseSchema = z.object({ traces: z.array(TraceListRowSchema) });
export type TraceListResponse = z.infer<typeof TraceListResponseSchema>;

/** One file of the saved folder; an unreadable one carries `error` (lib/trace/saved-traces.ts). */
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
