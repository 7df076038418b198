/**
 * The rows of the store's two index files — captured traces and saved files — as zod schemas,
 * free of Node APIs so that the wire contract (lib/contract/trace-list.ts) lists the same shapes.
 */
import { z } from 'zod';
import type { TraceSummary } from '../spans/summarize-trace';
import { TraceLinkKeysSchema } from '../spans/trace-link-keys';

/** The statuses of `TraceSummary['status']`, shared by both of the store's index files. */
export const TraceStatusSchema = z.enum(['ok', 'error', 'interrupted', 'answered', 'incomplete']);

/** One file of the saved-traces folder, as listed. A file that cannot be read carries `error`. */
export interface SavedTraceFile {
  /** File name inside the saved folder, e.g. `interrupt-bug.json`. */
  file: string;
  traceIds: string[];
  /** Name of the earliest trace in the file (the file name when it cannot be read). */
  name: string;
  /** Milliseconds since the epoch of the earliest span (0 when unreadable). */
  startTime: number;
  spanCount: number;
  /** `error` if any trace failed (or the file is unreadable), else the latest trace's status. */
  status: TraceSummary['status'];
  /** A top-level `"description"` string of the JSON object (OTLP readers ignore extra fields). */
  description?: string;
  /** Why the file could not be read; such files are listed, never modified. */
  error?: string;
}

/** One file of the saved folder as indexed and as listed (lib/contract/trace-list.ts). */
export const SavedTraceFileSchema = z.object({
  file: z.string(),
  traceIds: z.array(z.string()),
  name: z.string(),
  startTime: z.number(),
  spanCount: z.number(),
  status: TraceStatusSchema,
  description: z.string().optional(),
  error: z.string().optional(),
}) satisfies z.ZodType<SavedTraceFile>;

/** One row of the captured-trace index; the wire's list row is this without `linkKeys` (lib/contract/trace-list.ts). */
export const TraceSummarySchema = z.object({
  traceId: z.string(),
  name: z.string(),
  startTime: z.number(),
  endTime: z.number().optional(),
  spanCount: z.number(),
  models: z.array(z.string()),
  status: TraceStatusSchema,
  errorMessage: z.string().optional(),
  serviceName: z.string().optional(),
  linkKeys: TraceLinkKeysSchema.optional(),
  failedTools: z.number().optional(),
  /** With `answered`: the traces whose resumes answered it. */
  answeredBy: z.array(z.string()).optional(),
  title: z.string().optional(),
  runtime: z.string().optional(),
  replays: z.array(z.string()).optional(),
}) satisfies z.ZodType<TraceSummary>;

/**
 * The text a trace list's search looks in: title, name, service, runtime, trace id and
 * models, lowercased. One rule for the page's own filter and the store's search index.
 */
export function traceSearchText(row: Pick<TraceSummary, 'name' | 'serviceName' | 'runtime' | 'traceId' | 'models' | 'title'>): string {
  return [row.title ?? row.name, row.name, row.serviceName ?? '', row.runtime ?? '', row.traceId, ...row.models].join('\n').toLowerCase();
}

/** The words of a search (whitespace-separated, lowercased): a trace matches when its search text holds every one. */
export function searchWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((word) => word !== '');
}
