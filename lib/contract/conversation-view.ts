/**
 * A call's conversation as the message view shows it (part of a call span's `SpanView`): the
 * history it sent and what it received, every part typed, every runtime marker named — the
 * view a teacher explains the interrupt model with. Read on the server by the runtime's dialect.
 */
import { z } from 'zod';

export const MessagePartKindSchema = z.enum(['text', 'tool-request', 'tool-response', 'approval-request', 'approval-response', 'media', 'other']);

/** A runtime marker on a part (genkit: `interrupt`, `pendingOutput`, `resolvedInterrupt`, `resumed`, `replacedInput`; AI SDK: `denied`). */
export const PartMarkerSchema = z.object({ name: z.string(), value: z.unknown().optional() });

export const MessagePartViewSchema = z.object({
  kind: MessagePartKindSchema,
  /** A tool's name. */
  name: z.string().optional(),
  /** genkit's ref, the AI SDK's tool call id. */
  ref: z.string().optional(),
  /** The text, the tool input, the tool output, the approval — whatever the part carries. */
  value: z.unknown().optional(),
  markers: z.array(PartMarkerSchema),
});
export type MessagePartView = z.infer<typeof MessagePartViewSchema>;

export const MessageViewSchema = z.object({ role: z.string(), parts: z.array(MessagePartViewSchema) });
export type MessageView = z.infer<typeof MessageViewSchema>;

export const ConversationViewSchema = z.object({
  sent: z.array(MessageViewSchema),
  received: z.array(MessageViewSchema),
  /** What a resume sent besides its messages (genkit's `resume: {respond, restart}`), as one message of role `resume`. */
  answers: MessageViewSchema.optional(),
});
export type ConversationView = z.infer<typeof ConversationViewSchema>;
