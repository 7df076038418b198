/**
 * The AI SDK's rules for answering a paused call, checked before anything runs
 * (docs/interrupt-model.md, "Vercel AI SDK v7"): a call that stopped with `tool-calls` and left
 * tool calls without a result is answered in the next `generateText` by one `role: "tool"`
 * message — a `tool-approval-response` (approve / deny, its reason seen by the model) per call
 * that asked for approval, a `tool-result` per handed-back tool (a tool without `execute`).
 * Each rule is named with the SDK's own error where it has one; the payload is the exact
 * `messages` of that next call.
 */
import type { ApproveAnswer, DenyAnswer, RespondAnswer, ResumeIssue } from '../../../contract/resume-answers';
import type { PendingRequest, ResumeCheck, ResumeValidation } from '../../../loop/resume-model';
import { schemaErrors } from '../../../loop/schema-errors';
import type { SdkMessage, SdkPart } from './model-messages';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART } from './sdk-words';

type Kind = 'approve' | 'deny' | 'respond';
type Answer = { kind: Kind; answer: ApproveAnswer | DenyAnswer | RespondAnswer };

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);
const same = (request: PendingRequest, answer: { name: string; ref?: string }) => request.name === answer.name && request.ref === answer.ref;

/** The approval id an answer's `tool-approval-response` names: the recorded one, else one made from the tool call id. */
export function approvalIdFor(request: PendingRequest): string {
  return request.approval?.approvalId ?? `approval-${request.ref ?? request.name}`;
}

/**
 * What a pending call waits for: what the trace recorded, else what the local tool is — one
 * without `execute` is handed back, one with it stopped for an approval (it would have run).
 */
export function waitingForOf(request: PendingRequest, localTools: ResumeCheck['localTools']): { waitingFor?: PendingRequest['waitingFor']; evidence?: string } {
  if (request.waitingFor) return { waitingFor: request.waitingFor, evidence: request.waitingEvidence };
  const local = localTools?.get(request.name);
  if (!local) return {};
  return local.handedBack
    ? { waitingFor: 'result', evidence: `the local tool ${request.name} has no execute: the SDK hands its calls back to the caller` }
    : { waitingFor: 'approval', evidence: `the local tool ${request.name} has execute, yet the call stopped before running it: it waits for an approval` };
}

function missingResult(request: PendingRequest): ResumeIssue {
  const how = request.waitingFor === 'result' ? 'respond with its result' : request.waitingFor === 'approval' ? 'approve or deny it' : 'approve, deny or respond';
  return {
    code: 'INVALID_ARGUMENT',
    request: label(request),
    message: `${label(request)} is not answered (${how}): the AI SDK would throw AI_MissingToolResultsError: Tool result is missing for tool call ${request.ref ?? request.name}.`,
  };
}

/** Checks approve / deny / respond answers by the SDK's rules and builds the next call's `messages`. */
export function validateAiSdkResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const notes: string[] = [];
  const answers: Answer[] = [
    ...(check.approve ?? []).map((answer) => ({ kind: 'approve' as const, answer })),
    ...(check.deny ?? []).map((answer) => ({ kind: 'deny' as const, answer })),
    ...(check.respond ?? []).map((answer) => ({ kind: 'respond' as const, answer })),
  ];
  if ((check.restart ?? []).length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: 'The AI SDK has no restart: approve a call that asked for approval (the tool runs), deny it, or respond with the result of a handed-back tool.' });
  }
  const pending = context.requests.filter((request) => request.state === 'interrupted');
  if (pending.length === 0) {
    errors.push({ code: 'FAILED_PRECONDITION', message: 'This call waits for nothing: its last model answer left no tool call without a result (it did not stop for an approval or a handed-back tool).' });
  }

  for (const { kind, answer } of answers) {
    if (!answer.ref) {
      errors.push({ code: 'INVALID_ARGUMENT', request: answer.name, message: `Name the tool call id of the ${answer.name} call to ${kind} (${answer.name}#<toolCallId>): AI SDK answers are matched by tool call id.` });
      continue;
    }
    const request = context.requests.find((candidate) => same(candidate, answer));
    if (!request) {
      errors.push({ code: 'NOT_FOUND', request: label(answer), message: `The last assistant message has no tool call ${label(answer)} to ${kind}.` });
      continue;
    }
    if (request.state !== 'interrupted') {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `${label(answer)} is not pending (it ran, or the provider ran it): there is nothing to ${kind}.` });
      continue;
    }
    const { waitingFor } = waitingForOf(request, check.localTools);
    if ((kind === 'approve' || kind === 'deny') && waitingFor === 'result') {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(answer),
        message: `${label(answer)} is a handed-back tool (no execute), not an approval request: an approval runs nothing, and the AI SDK would throw AI_MissingToolResultsError. Respond with its result.`,
      });
    }
    if (kind === 'respond' && waitingFor === 'approval') {
      warnings.push({
        code: 'WARNING',
        request: label(answer),
        message: `${label(answer)} asked for approval: a tool-result in its place is accepted by the AI SDK, but the tool never runs and the approval is never given.`,
      });
    }
    if (kind === 'respond') {
      const problem = schemaErrors(check.localTools?.get(answer.name)?.outputSchema, (answer as RespondAnswer).output);
      if (problem) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `The result for ${label(answer)} does not match the tool's output schema: ${problem}.` });
    }
  }
  for (const request of pending) {
    const matching = answers.filter(({ answer }) => same(request, answer));
    if (matching.length === 0) errors.push(missingResult({ ...request, ...waitingForOf(request, check.localTools) }));
    if (matching.length > 1) {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(request),
        message: `${label(request)} is answered ${matching.length} times (${matching.map(({ kind }) => kind).join(', ')}): answer each pending call exactly once (the AI SDK would silently take the first).`,
      });
    }
    if (request.approval?.signature !== undefined && !check.signsApprovals) {
      warnings.push({ code: 'WARNING', request: label(request), message: `The approval request of ${label(request)} was signed, but this run holds no approval secret: the signature is sent and not checked.` });
    }
  }
  if (check.signsApprovals && answers.some(({ kind }) => kind === 'approve' || kind === 'deny')) {
    notes.push(
      'This call signs its approval requests (experimental_toolApprovalSecret): the runner signs each request the trace did not record a signature for, over the recorded input, with its secret before the call runs — an approval for a changed input would be refused with AI_InvalidToolApprovalSignatureError.',
    );
  }
  return { errors, warnings, payload: { messages: nextMessages({ check, answers }), ...(notes.length > 0 ? { notes } : {}) } };
}

/** The history, the approval requests the answers need in its last assistant message, and one `tool` message with the answers. */
function nextMessages({ check, answers }: { check: ResumeCheck; answers: Answer[] }): SdkMessage[] {
  const messages = structuredClone(check.context.messages) as SdkMessage[];
  const assistant = messages.findLast((message) => message.role === 'assistant');
  const content: SdkPart[] = [];
  for (const { kind, answer } of answers) {
    const request = check.context.requests.find((candidate) => same(candidate, answer));
    if (!request || !answer.ref) continue;
    if (kind === 'respond') {
      content.push({ type: 'tool-result', toolCallId: answer.ref, toolName: answer.name, output: { type: 'json', value: ((answer as RespondAnswer).output ?? null) as never } });
      continue;
    }
    const approvalId = approvalIdFor(request);
    if (assistant && Array.isArray(assistant.content) && !assistant.content.some((part) => part.type === APPROVAL_REQUEST_PART && part.approvalId === approvalId)) {
      assistant.content.push({ type: APPROVAL_REQUEST_PART, approvalId, toolCallId: answer.ref });
    }
    const reason = (answer as ApproveAnswer | DenyAnswer).reason;
    content.push({ type: APPROVAL_RESPONSE_PART, approvalId, approved: kind === 'approve', ...(reason !== undefined && reason !== '' ? { reason } : {}) });
  }
  return content.length > 0 ? [...messages, { role: 'tool', content }] : messages;
}
