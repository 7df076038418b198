/** The lists of the home page: captured traces (`GET /api/traces`) and saved files (`GET /api/saved`). */
import { z } from 'zod';
import { SavedTraceFileSchema, TraceStatusSchema, TraceSummarySchema } from '../trace/trace-index-rows';

/** `interrupted` is paused, waiting for an answer; `answered`: resumes in other traces answered every interrupt. */
export const TraceListStatusSchema = TraceStatusSchema;

/**
 * One captured trace as listed: the store's summary without its link keys (they stay on the
 * server), with its status as the other traces show it.
 */
export const TraceListRowSchema = TraceSummarySchema.omit({ linkKeys: true });
export type TraceListRow = z.infer<typeof TraceListRowSchema>;

export const TraceListResponseSchema = z.object({ traces: z.array(TraceListRowSchema) });
export type TraceListResponse = z.infer<typeof TraceListResponseSchema>;

/** One file of the saved folder; an unreadable one carries `error` (lib/trace/saved-traces.ts). */
export const SavedFileRowSchema = SavedTraceFileSchema;
export type SavedFileRow = z.infer<typeof SavedFileRowSchema>;

export const SavedListResponseSchema = z.object({ files: z.array(SavedFileRowSchema) });
export type SavedListResponse = z.infer<typeof SavedListResponseSchema>;
