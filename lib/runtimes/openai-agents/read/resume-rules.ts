/**
 * The OpenAI Agents SDK's rules for answering a paused run, checked before anything runs — each
 * one verified by sending the same answer through the real SDK (answer-probes.json, the answer
 * table in docs/guides/openai-agents.md). The answer is made on the paused run's state:
 * `state.approve(item)` (the tool runs) or `state.reject(item, rejection_message=…)` (the model
 * gets the message as the call's result), then `Runner.run(agent, state)`. The SDK refuses
 * nothing that is well-typed: a call left unanswered pauses the run again (no model call), an
 * answer for an id that is not pending is ignored, and a later answer for a call replaces an
 * earlier one. It has no way to give a pending call a result or a value: only approve and reject.
 */
import type { ApproveAnswer, DenyAnswer, ResumeIssue } from '../../../contract/resume-answers';
import type { PendingRequest, ResumeCheck, ResumeValidation } from '../../../loop/resume-model';

/** One answer on the run state, in the order the snippet makes them: `approve` or `reject` (with its message). */
export interface AgentsStateAnswer {
  callId: string;
  toolName: string;
  action: 'approve' | 'reject';
  rejectionMessage?: string;
}

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);

/** Checks approve / deny answers by the SDK's rules and lists the state's answers, approvals before rejections. */
export function validateAgentsResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const pending = context.requests.filter((request) => request.state === 'interrupted');
  if (pending.length === 0) errors.push({ code: 'FAILED_PRECONDITION', message: 'This run waits for nothing: no call of its last model answer is waiting for an approval.' });
  for (const [kind, answers] of [
    ['a result', check.respond ?? []],
    ['a restart', check.restart ?? []],
    ['a value', check.values ?? []],
  ] as const) {
    for (const answer of answers) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `The OpenAI Agents SDK has no way to give ${label(answer)} ${kind}: RunState offers approve() and reject() only (a rejection message is what the model gets).` });
    }
  }
  const answers: AgentsStateAnswer[] = [];
  const add = (action: AgentsStateAnswer['action'], answer: ApproveAnswer | DenyAnswer) => {
    if (!answer.ref) {
      errors.push({ code: 'INVALID_ARGUMENT', request: answer.name, message: `Name the tool call id of the ${answer.name} call (${answer.name}#<call id>): the SDK's approvals name the call by its call id.` });
      return;
    }
    const request = context.requests.find((candidate) => candidate.ref === answer.ref);
    if (!request) warnings.push({ code: 'WARNING', request: label(answer), message: `${label(answer)} is no call of the paused model answer: the SDK ignores it.` });
    else if (request.state !== 'interrupted') warnings.push({ code: 'WARNING', request: label(answer), message: `${label(answer)} did not wait for an approval (it ran in the paused run): the SDK ignores the answer.` });
    else if (request.name !== answer.name) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `Call ${answer.ref} is a call of ${request.name}, not ${answer.name}.` });
    if (action === 'approve' && answer.reason) warnings.push({ code: 'WARNING', request: label(answer), message: `state.approve() takes no reason: "${answer.reason}" goes nowhere.` });
    answers.push({ callId: answer.ref, toolName: request?.name ?? answer.name, action, ...(action === 'reject' && answer.reason ? { rejectionMessage: answer.reason } : {}) });
  };
  for (const answer of check.approve ?? []) add('approve', answer);
  for (const answer of check.deny ?? []) add('reject', answer);
  for (const request of pending) {
    const mine = answers.filter((answer) => answer.callId === request.ref);
    if (mine.length === 0) warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} is not answered: the run pauses again on it (no model call), and result.interruptions lists it again.` });
    if (mine.length > 1) warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} is answered ${mine.length} times: the SDK keeps the last — the snippet rejects after it approves, so it is rejected.` });
  }
  return { errors, warnings, payload: { messages: structuredClone(context.messages), answer: answers } };
}

/** What a paused request waits for: the SDK's pauses are approvals. */
export function agentsWaitingFor(request: PendingRequest): { waitingFor?: PendingRequest['waitingFor']; evidence?: string } {
  return request.state === 'interrupted' ? { waitingFor: 'approval', evidence: 'the SDK stopped it for an approval (needs_approval): its tool span has no result' } : {};
}
