/**
 * What a paused AI SDK call needs to be answered, rebuilt from its spans: the history of its
 * last model call (what it was sent, then what it answered) as the SDK's own model messages,
 * the tools it offered, and each tool call of that answer with where it stands — pending (no
 * execution, the call stopped with `tool-calls`: read-call.ts decides, once) or done.
 */
import { LoopscopeError } from '../../../errors';
import { stringAttribute, GEN_AI } from '../../otel-genai/read/genai-attributes';
import { toolCallParts } from '../../otel-genai/read/genai-messages';
import type { PendingRequest, ResumeContext } from '../../../loop/resume-model';
import type { SpanIndex } from '../../../loop/span-index';
import type { Span } from '../../../spans/span';
import { readAiSdkCall } from './read-call';
import { APPROVAL_REQUEST_PART } from './sdk-words';
import { messagesView } from './span-views';
import { toModelMessages, toolResultOutput } from './model-messages';
import { AI_SDK_DIALECT_ID } from './dialect-id';

/** `telemetry.functionId` as the legacy spans record it. */
const LEGACY_FUNCTION_ID = 'ai.telemetry.functionId';

export function aiSdkResumeContextOf(given: Span, index: SpanIndex): ResumeContext {
  // The index holds one copy of each span: walk from that one.
  const root = index.spans.find((span) => span.traceId === given.traceId && span.spanId === given.spanId) ?? given;
  const { call } = readAiSdkCall({ index, root });
  const lastModel = call.turns.at(-1)?.model;
  const modelSpan = lastModel ? index.spans.find((span) => span.traceId === lastModel.traceId && span.spanId === lastModel.spanId) : undefined;
  if (!modelSpan) throw new LoopscopeError('FAILED_PRECONDITION', 'The paused call recorded no model call, so its history cannot be rebuilt.');
  const view = messagesView(modelSpan);
  for (const [what, read] of [
    ['input', view.input],
    ['answer', view.output],
  ] as const) {
    if (read.problem) throw new LoopscopeError('FAILED_PRECONDITION', `The last model call's recorded ${what} cannot be read (${read.problem}), so the history cannot be rebuilt.`);
  }
  const answer = view.output.messages.at(-1);
  const pending = new Set(call.pendingInterrupts.map((request) => request.ref ?? request.name));
  const approvals = new Map<string, { approvalId?: string; signature?: string }>();
  for (const part of answer?.parts ?? []) {
    if (part.type !== APPROVAL_REQUEST_PART || part.id === undefined) continue;
    const extra = part.extra ?? {};
    approvals.set(part.id, { ...(typeof extra.approvalId === 'string' ? { approvalId: extra.approvalId } : {}), ...(typeof extra.signature === 'string' ? { signature: extra.signature } : {}) });
  }
  const requests: PendingRequest[] = toolCallParts(answer).map((part) => {
    const name = part.name ?? 'unknown tool';
    const waiting = pending.has(part.id ?? name);
    const approval = part.id !== undefined ? approvals.get(part.id) : undefined;
    return {
      name,
      ...(part.id !== undefined ? { ref: part.id } : {}),
      input: part.arguments,
      state: waiting ? 'interrupted' : 'done',
      ...(waiting && approval ? { waitingFor: 'approval' as const, waitingEvidence: 'the recorded answer holds a tool-approval-request for this call', approval } : {}),
    };
  });
  const rebuilt = toModelMessages([...view.input.messages, ...view.output.messages]);
  // Calls of that answer that ran in the paused call (by policy, or needing no approval): their
  // results follow the answer as the SDK's own response messages hold them.
  const ran = (call.turns.at(-1)?.toolCalls ?? []).filter((tool) => tool.spanId !== undefined && tool.ref !== undefined && !pending.has(tool.ref) && (tool.status === 'ok' || tool.status === 'error'));
  if (ran.length > 0) {
    rebuilt.messages.push({
      role: 'tool',
      content: ran.map((tool) => ({
        type: 'tool-result',
        toolCallId: tool.ref as string,
        toolName: tool.name,
        output: tool.status === 'error' ? { type: 'error-text', value: tool.errorMessage ?? 'the tool failed' } : toolResultOutput(tool.output),
      })),
    });
  }
  return {
    dialect: AI_SDK_DIALECT_ID,
    traceId: root.traceId,
    spanId: root.spanId,
    model: call.model,
    ...(stringAttribute(modelSpan.attributes[GEN_AI.providerName]) !== undefined ? { modelProvider: stringAttribute(modelSpan.attributes[GEN_AI.providerName]) } : {}),
    callName: stringAttribute(root.attributes[GEN_AI.agentName]) ?? stringAttribute(root.attributes[LEGACY_FUNCTION_ID]),
    messages: rebuilt.messages,
    tools: [...(view.tools?.values() ?? [])].map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, ...(tool.type ? { metadata: { type: tool.type } } : {}) })),
    requests,
  };
}
