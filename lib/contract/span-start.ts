import { z } from 'zod';

/**
 * A span that started in the runner (over IPC to the server, then on the event stream to
 * the page); the full span arrives over OTLP when it ends.
 */
export const SpanStartEventSchema = z.object({
  runId: z.string(),
  /** The runner request (one generate or replay call of the run) the span belongs to. */
  requestId: z.string().optional(),
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  attributes: z.record(z.string(), z.string()),
  startTimeUnixNano: z.string(),
  /**
   * The resource of the process that started it, when the runner says (the genkit Go runner:
   * its `telemetry.sdk.language = go` is how the genkit Go dialect claims the open span).
   */
  resource: z.record(z.string(), z.string()).optional(),
  /** The instrumentation scope that started it (`gen_ai` for the AI SDK's spans), when the runner says: dialects claim spans by scope. */
  scope: z.object({ name: z.string(), version: z.string().optional() }).optional(),
});
export type SpanStartEvent = z.infer<typeof SpanStartEventSchema>;
