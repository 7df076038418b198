/**
 * A genkit call's conversation for the message view: the messages a generate (or a model
 * call) was sent, the message it received, and a resume's `respond` / `restart` parts — each
 * part typed, each genkit marker on it named (docs/interrupt-model.md §2–§3, §7 bug 3).
 */
import type { ConversationView, MessagePartView, MessageView } from '../../../contract/conversation-view';
import { isObject } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { Span } from '../../../spans/span';
import { spanRole } from './classify-span';
import { inputMessages, messageParts, type RecordedPart } from './message-parts';
import { readResumeInput } from './resume-parts';

/** The part metadata genkit's interrupt model turns on, named first and always shown. */
const MARKERS = ['interrupt', 'pendingOutput', 'resolvedInterrupt', 'resumed', 'replacedInput'];

function markersOf(part: RecordedPart): MessagePartView['markers'] {
  const metadata = isObject(part.metadata) ? part.metadata : {};
  const named = MARKERS.filter((name) => name in metadata).map((name) => ({ name, value: metadata[name] }));
  const others = Object.keys(metadata)
    .filter((name) => !MARKERS.includes(name))
    .map((name) => ({ name, value: metadata[name] }));
  return [...named, ...others];
}

function partView(part: RecordedPart): MessagePartView {
  const markers = markersOf(part);
  const stringOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (isObject(part.toolRequest)) return { kind: 'tool-request', name: stringOf(part.toolRequest.name), ref: stringOf(part.toolRequest.ref), value: part.toolRequest.input, markers };
  if (isObject(part.toolResponse)) return { kind: 'tool-response', name: stringOf(part.toolResponse.name), ref: stringOf(part.toolResponse.ref), value: part.toolResponse.output, markers };
  if (typeof part.text === 'string') return { kind: 'text', value: part.text, markers };
  if ('media' in part) return { kind: 'media', value: (part as { media?: unknown }).media, markers };
  const { metadata: _metadata, ...rest } = part as Record<string, unknown>;
  return { kind: 'other', value: rest, markers };
}

function messageView(message: unknown): MessageView {
  const role = isObject(message) && typeof message.role === 'string' ? message.role : 'unknown';
  return { role, parts: messageParts(message).map(partView) };
}

/** The conversation of a generate or model span, or undefined for other spans and unreadable values. */
export function genkitConversationOf(span: Span): ConversationView | undefined {
  const role = spanRole(span);
  if (role !== 'generate' && role !== 'model') return undefined;
  const input = jsonAttributeOrUndefined(span.attributes['genkit:input']);
  const output = jsonAttributeOrUndefined(span.attributes['genkit:output']);
  if (input === undefined && output === undefined) return undefined;
  const received = isObject(output) && output.message !== undefined ? [messageView(output.message)] : [];
  const resume = readResumeInput(input);
  const answers: MessageView | undefined = resume ? { role: 'resume', parts: [...resume.respond, ...resume.restart].map((part) => partView(part as RecordedPart)) } : undefined;
  return { sent: inputMessages(input).map(messageView), received, ...(answers ? { answers } : {}) };
}
