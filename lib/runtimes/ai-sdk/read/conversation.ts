/**
 * An AI SDK call's conversation for the message view: the messages a call (`invoke_agent`,
 * `ai.generateText`) or a model call (`chat`, `doGenerate`) was sent and what it received,
 * read from the GenAI messages or the legacy attributes, each part typed: tool calls and their
 * results, the SDK's approval parts, a denial and a parse error named as markers.
 */
import type { ConversationView, MessagePartView, MessageView } from '../../../contract/conversation-view';
import type { GenAiMessage, GenAiPart } from '../../otel-genai/read/genai-messages';
import type { Span } from '../../../spans/span';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART, denialOf, parseErrorOf } from './sdk-words';
import { messagesView, sdkSpanKind } from './span-views';

function partView(part: GenAiPart): MessagePartView {
  const extra = part.extra ? Object.entries(part.extra).map(([name, value]) => ({ name, value })) : [];
  if (part.type === 'text') return { kind: 'text', value: part.content, markers: extra };
  if (part.type === 'tool_call') return { kind: 'tool-request', name: part.name, ref: part.id, value: part.arguments, markers: extra };
  if (part.type === 'tool_call_response') {
    const denial = denialOf(part.response);
    const parseError = parseErrorOf(part.response);
    const markers = [...(denial ? [{ name: 'denied', value: denial.reason }] : []), ...(parseError ? [{ name: parseError.code, value: parseError.message }] : []), ...extra];
    return { kind: 'tool-response', name: part.name, ref: part.id, value: part.response, markers };
  }
  if (part.type === APPROVAL_REQUEST_PART) return { kind: 'approval-request', ref: part.id, value: part.extra, markers: [{ name: APPROVAL_REQUEST_PART }] };
  if (part.type === APPROVAL_RESPONSE_PART) return { kind: 'approval-response', ref: part.id, value: part.extra, markers: [{ name: APPROVAL_RESPONSE_PART }] };
  return { kind: 'other', value: { type: part.type, ...part.extra }, markers: [] };
}

const messageView = (message: GenAiMessage): MessageView => ({ role: message.role, parts: message.parts.map(partView) });

/** The conversation of a call or model span, or undefined for other spans and spans without messages. */
export function aiSdkConversationOf(span: Span): ConversationView | undefined {
  const kind = sdkSpanKind(span);
  if (kind !== 'call' && kind !== 'model') return undefined;
  const view = messagesView(span);
  if (view.input.messages.length === 0 && view.output.messages.length === 0) return undefined;
  return { sent: view.input.messages.map(messageView), received: view.output.messages.map(messageView) };
}
