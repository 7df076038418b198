/** The lists of the home page: captured traces (`GET /api/traces`) and saved files (`GET /api/saved`). */
import { z } from 'zod';
import type { SavedTraceFile } from '../trace/saved-traces';
import type { TraceSummary } from '../trace/summarize-trace';

/** `interrupted` is paused, waiting for an answer; `answered`: resumes in other traces answered every interrupt. */
export const TraceListStatusSchema = z.enum(['ok', 'error', 'interrupted', 'answered', 'incomplete']) satisfies z.ZodType<TraceSummary['status']>;

/**
 * One captured trace as listed: the store's summary without its link keys (they stay on the
 * server), with its status as the other traces show it.
 */
export const TraceListRowSchema = z.object({
  traceId: z.string(),
  name: z.string(),
  startTime: z.number(),
  endTime: z.number().optional(),
  spanCount: z.number(),
  models: z.array(z.string()),
  status: TraceListStatusSchema,
  errorMessage: z.string().optional(),
  serviceName: z.string().optional(),
  failedTools: z.number().optional(),
  /** With `answered`: the traces whose resumes answered it. */
  answeredBy: z.array(z.string()).optional(),
}) satisfies z.ZodType<Omit<TraceSummary, 'linkKeys'>>;
export type TraceListRow = z.infer<typeof TraceListRowSchema>;

export const TraceListResponseSchema = z.object({ traces: z.array(TraceListRowSchema) });
export type TraceListResponse = z.infer<typeof TraceListResponseSchema>;

/** One file of the saved folder; an unreadable one carries `error` (lib/trace/saved-traces.ts). */
export const SavedFileRowSchema = z.object({
  file: z.string(),
  traceIds: z.array(z.string()),
  name: z.string(),
  startTime: z.number(),
  spanCount: z.number(),
  status: TraceListStatusSchema,
  description: z.string().optional(),
  error: z.string().optional(),
}) satisfies z.ZodType<SavedTraceFile>;
export type SavedFileRow = z.infer<typeof SavedFileRowSchema>;

export const SavedListResponseSchema = z.object({ files: z.array(SavedFileRowSchema) });
export type SavedListResponse = z.infer<typeof SavedListResponseSchema>;
