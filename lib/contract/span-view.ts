/**
 * One span as the detail panel shows it, built on the server (`GET /api/traces/{traceId}/spans/{spanId}`,
 * `GET /api/saved/{file}/spans/{traceId}/{spanId}`): what it is, how it ended, what went in and
 * came out — already read from the runtime's attributes, so the page parses none of them.
 */
import { z } from 'zod';
import { ConversationViewSchema } from './conversation-view';

/** A recorded JSON value: parsed, or the raw text with the reason it could not be parsed (truncated, hand-edited, too deep). */
export const RecordedValueSchema = z.discriminatedUnion('parsed', [
  z.object({ parsed: z.literal(true), value: z.unknown() }),
  z.object({ parsed: z.literal(false), raw: z.string(), reason: z.string() }),
]);
export type RecordedValue = z.infer<typeof RecordedValueSchema>;

export const SpanRoleSchema = z.enum(['generate', 'model', 'tool', 'flow', 'other']);
/** `interrupted` is a tool that asked for a human: a pause, never a failure. */
export const SpanOutcomeSchema = z.enum(['ok', 'error', 'interrupted', 'running']);

export const SpanViewSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  /** The dialect that recorded the span (`genkit-js`, `ai-sdk`), when one claims it: pages take its words. */
  runtime: z.string().optional(),
  /** The span's own name. */
  name: z.string(),
  role: SpanRoleSchema,
  /** What the runtime calls it (a tool's or model's name), else the span name; bounded as lists bound names (`… [N characters in all]`). */
  label: z.string(),
  /** The whole label, when `label` was cut and is not the span's `name` (which is always whole). */
  wholeLabel: z.string().optional(),
  outcome: SpanOutcomeSchema,
  /** Milliseconds since the epoch. */
  startTime: z.number(),
  /** Absent while the span is still open. */
  durationMs: z.number().optional(),
  errorMessage: z.string().optional(),
  input: RecordedValueSchema.optional(),
  output: RecordedValueSchema.optional(),
  /** An interrupted tool: the metadata it passed to `interrupt()` (`true` when none). */
  interruptMetadata: RecordedValueSchema.optional(),
  /** A restarted tool: the resumed metadata it was given. */
  resumedMetadata: RecordedValueSchema.optional(),
  /** A call's span: its conversation, read by the dialect (the message view). */
  conversation: ConversationViewSchema.optional(),
  /** Every other attribute, as recorded. */
  attributes: z.record(z.string(), z.unknown()),
  events: z.array(z.object({ name: z.string(), timeUnixNano: z.string(), attributes: z.record(z.string(), z.unknown()) })),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string(), attributes: z.record(z.string(), z.unknown()) })),
});
export type SpanView = z.infer<typeof SpanViewSchema>;
