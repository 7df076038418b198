/** Bringing traces in and writing them out: `POST /api/traces/import` and `POST /api/traces/save`. */
import { z } from 'zod';
import { TraceIdSchema } from './ids';

export const ImportTraceRequestSchema = z.object({
  /** The file's name, only used in error messages. */
  fileName: z.string().min(1, 'name the file').max(300),
  /** The file's text: OTLP JSON (object or JSONL) or a Genkit Dev UI TraceData file. */
  text: z.string().min(1, 'the file is empty'),
});
export type ImportTraceRequest = z.infer<typeof ImportTraceRequestSchema>;

export const ImportTraceResponseSchema = z.object({ traceIds: z.array(z.string()), spanCount: z.number() });
export type ImportTraceResponse = z.infer<typeof ImportTraceResponseSchema>;

/** Saves captured traces as a named OTLP JSON file in traces/. */
export const SaveTraceRequestSchema = z.object({
  traceIds: z.array(TraceIdSchema).min(1, 'name at least one trace').max(100, 'at most 100 traces'),
  name: z.string().min(1, 'name the file').max(100),
  overwrite: z.boolean().optional(),
});
export type SaveTraceRequest = z.infer<typeof SaveTraceRequestSchema>;

export const SaveTraceResponseSchema = z.object({ file: z.string() });
export type SaveTraceResponse = z.infer<typeof SaveTraceResponseSchema>;
