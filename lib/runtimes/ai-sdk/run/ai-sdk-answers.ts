import type { ModelMessage, ToolContent } from 'ai';
import type { AiSdkScriptedResume } from '../../../contract/ai-sdk-scenario';

type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number];

class AnswerError extends Error {
  readonly status = 'INVALID_ARGUMENT';
}

/** The parts of the last assistant message: where the calls that wait for an answer are. */
function lastAssistantParts(messages: readonly ModelMessage[]): AssistantPart[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message.role === 'assistant') return typeof message.content === 'string' ? [] : message.content;
  }
  return [];
}

function approvalIdOf({ parts, toolName, toolCallId }: { parts: AssistantPart[]; toolName: string; toolCallId: string }): string {
  const call = parts.find((part) => part.type === 'tool-call' && part.toolCallId === toolCallId);
  if (!call || call.type !== 'tool-call' || call.toolName !== toolName) {
    throw new AnswerError(`The last assistant message has no tool call ${toolName}#${toolCallId} to answer.`);
  }
  const request = parts.find((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId);
  if (!request || request.type !== 'tool-approval-request') {
    throw new AnswerError(`Tool call ${toolName}#${toolCallId} asked for no approval: approve and deny answer approval requests only.`);
  }
  return request.approvalId;
}

/**
 * The messages of the next `generateText` that answers the previous one: its history, then
 * one `role: "tool"` message with a `tool-approval-response` per approve / deny and a
 * `tool-result` per handed-back tool (the AI SDK's own way, docs/interrupt-model.md). The
 * history is copied: an approve with `forgedInput` rewrites the call's input in the copy, as a
 * client forging an approval would, so a signed request no longer verifies.
 */
export function answerMessages({ messages, answers }: { messages: readonly ModelMessage[]; answers: AiSdkScriptedResume }): ModelMessage[] {
  const history = structuredClone(messages) as ModelMessage[];
  const parts = lastAssistantParts(history);
  const content: ToolContent = [];
  for (const answer of answers.approve ?? []) {
    const approvalId = approvalIdOf({ parts, toolName: answer.toolName, toolCallId: answer.toolCallId });
    if (answer.forgedInput !== undefined) {
      for (const part of parts) if (part.type === 'tool-call' && part.toolCallId === answer.toolCallId) part.input = answer.forgedInput;
    }
    content.push({ type: 'tool-approval-response', approvalId, approved: true, ...(answer.reason !== undefined ? { reason: answer.reason } : {}) });
  }
  for (const answer of answers.deny ?? []) {
    const approvalId = approvalIdOf({ parts, toolName: answer.toolName, toolCallId: answer.toolCallId });
    content.push({ type: 'tool-approval-response', approvalId, approved: false, reason: answer.reason });
  }
  for (const answer of answers.respond ?? []) {
    const call = parts.find((part) => part.type === 'tool-call' && part.toolCallId === answer.toolCallId && part.toolName === answer.toolName);
    if (!call) throw new AnswerError(`The last assistant message has no tool call ${answer.toolName}#${answer.toolCallId} to respond to.`);
    content.push({ type: 'tool-result', toolCallId: answer.toolCallId, toolName: answer.toolName, output: { type: 'json', value: answer.output as never } });
  }
  return [...history, { role: 'tool', content }];
}

/**
 * Signs the approval requests of the last assistant message that carry no signature, with the
 * run's approval secret, by the SDK's own `signToolApproval` (the app's server does this when it
 * issues a request; a request rebuilt from a trace has lost it — GenAI messages record approval
 * parts bare). The recorded input is what is signed: an approval for another input still fails
 * the SDK's check. Returns a copy; signed requests are left as they are.
 */
export async function signApprovalRequests({ messages, secret }: { messages: readonly ModelMessage[]; secret: string }): Promise<ModelMessage[]> {
  const { signToolApproval } = await import('ai/internal');
  const history = structuredClone(messages) as ModelMessage[];
  const parts = lastAssistantParts(history);
  for (const part of parts) {
    if (part.type !== 'tool-approval-request' || part.signature !== undefined) continue;
    const call = parts.find((candidate) => candidate.type === 'tool-call' && candidate.toolCallId === part.toolCallId);
    if (!call || call.type !== 'tool-call') continue;
    part.signature = await signToolApproval({ secret, approvalId: part.approvalId, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
  }
  return history;
}
