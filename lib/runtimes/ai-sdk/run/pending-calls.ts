import type { GenerateTextResult, ToolSet } from 'ai';

/** A call that waits for the caller: an approval to give, or a handed-back tool's result. */
export interface AiSdkPendingCall {
  kind: 'approval' | 'handed-back';
  toolName: string;
  toolCallId: string;
  input: unknown;
  approvalId?: string;
  /** The policy's reason for asking, when it gave one. */
  reason?: string;
}

/** The calls a finished `generateText` left waiting: approvals to give, handed-back tools to answer. */
export function pendingCalls(result: Pick<GenerateTextResult<ToolSet, never, never>, 'content' | 'finishReason'>): AiSdkPendingCall[] {
  const pending: AiSdkPendingCall[] = [];
  const settled = new Set<string>();
  for (const part of result.content) {
    if (part.type === 'tool-result' || part.type === 'tool-error') settled.add(part.toolCallId);
  }
  const approvals = new Set<string>();
  for (const part of result.content) {
    if (part.type !== 'tool-approval-request') continue;
    approvals.add(part.toolCall.toolCallId);
    // Approved by policy: the request is in the content, but nothing waits for it.
    if ((part as { isAutomatic?: boolean }).isAutomatic) continue;
    pending.push({
      kind: 'approval',
      toolName: part.toolCall.toolName,
      toolCallId: part.toolCall.toolCallId,
      input: part.toolCall.input,
      approvalId: part.approvalId,
      ...((part as { reason?: string }).reason !== undefined ? { reason: (part as { reason?: string }).reason } : {}),
    });
  }
  // A tool without `execute` leaves its call without a result: handed back to the caller.
  for (const part of result.content) {
    if (part.type !== 'tool-call' || part.providerExecuted || part.invalid || settled.has(part.toolCallId) || approvals.has(part.toolCallId)) continue;
    if (result.finishReason !== 'tool-calls') continue;
    pending.push({ kind: 'handed-back', toolName: part.toolName, toolCallId: part.toolCallId, input: part.input });
  }
  return pending;
}
