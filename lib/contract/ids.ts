/**
 * The ids every request, event and runner record names spans by — one definition, so a
 * route, a schema and the runner refuse the same strings with the same words.
 */
import { z } from 'zod';
import { LoopscopeError } from '../errors';

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const SPAN_KEY = /^[0-9a-f]{32}:[0-9a-f]{16}$/;

/** An OpenTelemetry trace id as Loopscope writes it: 32 lowercase hex characters. */
export const TraceIdSchema = z.string().regex(TRACE_ID, 'a trace id is 32 lowercase hex characters');
/** An OpenTelemetry span id: 16 lowercase hex characters. */
export const SpanIdSchema = z.string().regex(SPAN_ID, 'a span id is 16 lowercase hex characters');
/** One recorded span named in a request: `traceId:spanId`. */
export const SpanKeySchema = z.string().regex(SPAN_KEY, 'a recorded call is named traceId:spanId (32 and 16 lowercase hex characters)');
/** A span named by its two ids (divergences, links, the span a resume answers). */
export const SpanRefSchema = z.object({ traceId: TraceIdSchema, spanId: SpanIdSchema });
export type SpanRef = z.infer<typeof SpanRefSchema>;

/** Whether a string is a trace id (lowercase hex, as stored). */
export function isTraceId(value: string): boolean {
  return TRACE_ID.test(value);
}

/**
 * A trace id taken from a URL segment.
 * @throws LoopscopeError INVALID_ARGUMENT naming the value, when it is not one.
 */
export function traceIdFrom(value: string): string {
  if (!TRACE_ID.test(value)) throw new LoopscopeError('INVALID_ARGUMENT', `${JSON.stringify(value)} is not a trace id (32 lowercase hex characters).`);
  return value;
}

/**
 * A span id taken from a URL segment.
 * @throws LoopscopeError INVALID_ARGUMENT naming the value, when it is not one.
 */
export function spanIdFrom(value: string): string {
  if (!SPAN_ID.test(value)) throw new LoopscopeError('INVALID_ARGUMENT', `${JSON.stringify(value)} is not a span id (16 lowercase hex characters).`);
  return value;
}
