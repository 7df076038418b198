import { z } from 'zod';
import { TraceIdSchema } from './ids';

/** The traces of a session, in causal order: at least one, at most 50. */
export const TraceIdListSchema = z.array(TraceIdSchema).min(1, 'name at least one trace').max(50, 'at most 50 traces');

const CapturedSourceSchema = z.object({ traceIds: TraceIdListSchema });
const SavedSourceSchema = z.object({ file: z.string().min(1, 'name the saved file').max(200, 'a saved file name has at most 200 characters') });
export type TraceSource = z.infer<typeof CapturedSourceSchema> | z.infer<typeof SavedSourceSchema>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Where recorded spans come from in a request: captured traces (a session), or a saved file
 * in traces/. The key present picks the shape, so a problem is named in that shape's words
 * (a union would answer "matches neither" for a 51st trace id).
 */
export const TraceSourceSchema = z.unknown().transform((value, context): TraceSource => {
  const schema = isObject(value) && 'traceIds' in value ? CapturedSourceSchema : isObject(value) && 'file' in value ? SavedSourceSchema : undefined;
  if (!schema) {
    context.addIssue({ code: 'custom', message: 'expected {"traceIds": [trace ids]} or {"file": "<saved file name>"}' });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});
