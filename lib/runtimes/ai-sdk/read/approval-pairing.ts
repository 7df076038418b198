/**
 * Gives the bare approval parts of GenAI messages what the spans did not record, so that a
 * history can be sent again (`toModelMessages`, model-messages.ts, keeps an approval part only
 * with its `approvalId`). `@ai-sdk/otel` writes `tool-approval-request` and
 * `tool-approval-response` parts with no ids and no `approved` flag; which call each belongs to
 * and how it was answered come from the recording's other evidence (`approvalOf`), and the ids
 * are made up to pair a request with its response (the SDK matches them by id; it never shows
 * them to the model, and a replay compares what the model was sent).
 */
import type { GenAiMessage, GenAiPart } from '../../otel-genai/read/genai-messages';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART } from './sdk-words';

/** How a recorded approval was asked and answered, by tool call id. */
export type ApprovalOf = (toolCallId: string) => { asked: boolean; approved?: boolean; reason?: string };

/** The approval id a paired request of tool call `toolCallId` gets. */
export const pairedApprovalId = (toolCallId: string) => `approval-${toolCallId}`;

/**
 * The tool calls of an assistant message its bare approval requests belong to, in call order:
 * those the recording says asked, then — when the message holds more requests than that (a
 * policy decided the others, in a call not recorded) — the next calls in order.
 */
function askingCalls(message: GenAiMessage, approvalOf: ApprovalOf): string[] {
  const calls = message.parts.filter((part) => part.type === 'tool_call' && part.id !== undefined).map((part) => part.id!);
  const bare = message.parts.filter((part) => part.type === APPROVAL_REQUEST_PART && part.extra?.approvalId === undefined).length;
  const chosen = new Set(calls.filter((id) => approvalOf(id).asked));
  for (const id of calls) {
    if (chosen.size >= bare) break;
    chosen.add(id);
  }
  return calls.filter((id) => chosen.has(id));
}

const isBare = (part: GenAiPart) => (part.type === APPROVAL_REQUEST_PART || part.type === APPROVAL_RESPONSE_PART) && part.extra?.approvalId === undefined;

/**
 * The messages with each bare approval request paired with the call it asked for, and each bare
 * response, in order, with the request it answers (the requests of the last assistant message
 * before it, less those answered in earlier tool messages). Parts that carry their ids are kept.
 */
export function pairApprovalParts(messages: readonly GenAiMessage[], approvalOf: ApprovalOf): GenAiMessage[] {
  let waiting: string[] = [];
  return messages.map((message) => {
    if (!message.parts.some(isBare)) {
      if (message.role === 'assistant') waiting = askingCalls(message, approvalOf);
      return message;
    }
    if (message.role === 'assistant') {
      const asking = askingCalls(message, approvalOf);
      waiting = [...asking];
      const unpaired = [...asking];
      return {
        ...message,
        parts: message.parts.flatMap((part): GenAiPart[] => {
          if (!isBare(part) || part.type !== APPROVAL_REQUEST_PART) return [part];
          const toolCallId = unpaired.shift();
          return toolCallId === undefined ? [] : [{ ...part, extra: { ...part.extra, approvalId: pairedApprovalId(toolCallId), toolCallId } }];
        }),
      };
    }
    return {
      ...message,
      parts: message.parts.flatMap((part): GenAiPart[] => {
        if (!isBare(part) || part.type !== APPROVAL_RESPONSE_PART) return [part];
        const toolCallId = waiting.shift();
        if (toolCallId === undefined) return [];
        const { approved, reason } = approvalOf(toolCallId);
        return [{ ...part, extra: { ...part.extra, approvalId: pairedApprovalId(toolCallId), approved: approved ?? true, ...(reason !== undefined ? { reason } : {}) } }];
      }),
    };
  });
}
