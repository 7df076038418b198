/**
 * Pydantic AI's rules for answering a paused run, checked before anything runs — each one
 * verified by sending the same answer through real Pydantic AI (answer-probes.json, the answer
 * table in docs/guides/pydantic-ai.md). The answer is `DeferredToolResults(approvals={id: True |
 * ToolDenied(message) | ToolApproved(override_args=…)}, calls={id: result})`, passed with the
 * paused run's message history to `agent.run(…)`:
 * - every call of the paused model answer needs a result — the ones that ran have theirs in the
 *   history, every paused one needs an answer — and no other id may be answered: else
 *   `UserError: Tool call results need to be provided for all deferred tool calls. Expected: {…}, got: {…}`;
 * - a call that already ran cannot be answered: `UserError: Tool call '…' was already executed
 *   and its result cannot be overridden.`;
 * - an external tool cannot be approved (`RuntimeError: External tools cannot be called`).
 * Pydantic AI does not check that an answer's kind fits the pause (a result answers an approval;
 * an approval runs a deferring tool again, which defers again), nor a result's shape; new
 * arguments that break the tool's schema are given to the model as a retry, the tool not run.
 */
import type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ResumeIssue } from '../../../contract/resume-answers';
import type { PendingRequest, ResumeCheck, ResumeValidation } from '../../../loop/resume-model';
import { schemaErrors } from '../../../loop/schema-errors';
import { isExternal } from './resume-context';

/** One answer of `DeferredToolResults.approvals`: approved, denied with a message, or approved with new arguments. */
export type PydanticApproval = true | { kind: 'ToolDenied'; message?: string } | { kind: 'ToolApproved'; overrideArgs?: unknown };

/** The answer as Pydantic AI takes it: `DeferredToolResults(approvals=…, calls=…)`, by tool call id. */
export interface PydanticDeferredResults {
  approvals: Record<string, PydanticApproval>;
  calls: Record<string, unknown>;
}

type Kind = 'approve' | 'deny' | 'respond' | 'restart';
type Answer = { kind: Kind; answer: ApproveAnswer | DenyAnswer | RespondAnswer | RestartAnswer };

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);
/** A Python set of ids as Pydantic AI's message prints it (sorted here: Python's order changes from run to run). */
const pythonSet = (ids: Iterable<string>) => {
  const sorted = [...new Set(ids)].sort();
  return sorted.length === 0 ? 'set()' : `{${sorted.map((id) => `'${id}'`).join(', ')}}`;
};

/** The answers in the order the snippet writes them: approvals (approve, new arguments, deny — a later one replaces an earlier), then results. */
function answersOf(check: ResumeCheck): Answer[] {
  return [
    ...(check.approve ?? []).map((answer) => ({ kind: 'approve' as const, answer })),
    ...(check.restart ?? []).map((answer) => ({ kind: 'restart' as const, answer })),
    ...(check.deny ?? []).map((answer) => ({ kind: 'deny' as const, answer })),
    ...(check.respond ?? []).map((answer) => ({ kind: 'respond' as const, answer })),
  ];
}

/** `DeferredToolResults` as the answers make it (the same dicts the snippet writes). */
export function deferredResultsOf(answers: readonly Answer[]): PydanticDeferredResults {
  const results: PydanticDeferredResults = { approvals: {}, calls: {} };
  for (const { kind, answer } of answers) {
    if (!answer.ref) continue;
    if (kind === 'respond') results.calls[answer.ref] = (answer as RespondAnswer).output ?? null;
    else if (kind === 'approve') results.approvals[answer.ref] = true;
    else if (kind === 'deny') {
      const message = (answer as DenyAnswer).reason;
      results.approvals[answer.ref] = { kind: 'ToolDenied', ...(message !== undefined && message !== '' ? { message } : {}) };
    } else {
      const overrideArgs = (answer as RestartAnswer).replaceInput;
      results.approvals[answer.ref] = { kind: 'ToolApproved', ...(overrideArgs !== undefined ? { overrideArgs } : {}) };
    }
  }
  return results;
}

function checkAnswer(options: { check: ResumeCheck; kind: Kind; answer: Answer['answer']; errors: ResumeIssue[]; warnings: ResumeIssue[] }): void {
  const { check, kind, answer, errors, warnings } = options;
  const request = check.context.requests.find((candidate) => candidate.ref === answer.ref);
  if (!request) return; // an unknown id: the set check names it, as Pydantic AI does
  if (request.name !== answer.name) {
    errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `Tool call ${answer.ref} is a call of ${request.name}, not ${answer.name}: Pydantic AI answers a call by its id only, so check which call you mean.` });
  }
  if (request.state !== 'interrupted') {
    errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `Pydantic AI would raise UserError: Tool call '${answer.ref}' was already executed and its result cannot be overridden.` });
    return;
  }
  if ((kind === 'approve' || kind === 'restart') && isExternal(request)) {
    errors.push({ code: 'FAILED_PRECONDITION', request: label(answer), message: `${label(answer)} is a call of an external tool, which Pydantic AI cannot run: approving it raises RuntimeError: External tools cannot be called. Give it the caller's result.` });
  }
  if ((kind === 'approve' || kind === 'restart') && request.waitingFor === 'result' && !isExternal(request)) {
    warnings.push({ code: 'WARNING', request: label(answer), message: `${label(answer)} waits for the caller's result (${request.pausedAs}): approving it runs the tool again, which defers again — the run pauses again on it.` });
  }
  if (kind === 'approve' && (answer as ApproveAnswer).reason) {
    warnings.push({ code: 'WARNING', request: label(answer), message: `Pydantic AI's approval (True) takes no reason: "${(answer as ApproveAnswer).reason}" goes nowhere.` });
  }
  if (kind === 'restart' && (answer as RestartAnswer).replaceInput !== undefined) {
    const schema = check.context.tools.find((tool) => tool.name === request.name)?.inputSchema;
    const problem = schemaErrors(schema, (answer as RestartAnswer).replaceInput);
    if (problem) {
      warnings.push({ code: 'WARNING', request: label(answer), message: `The new arguments of ${label(answer)} break the tool's schema (${problem}): Pydantic AI does not run the tool and gives the model the validation error as a retry.` });
    }
  }
}

/** Checks answers by Pydantic AI's rules (see the file's comment) and builds the `DeferredToolResults`. */
export function validatePydanticResume(check: ResumeCheck): ResumeValidation {
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const answers = answersOf(check);
  const requests = check.context.requests;
  if (!requests.some((request) => request.state === 'interrupted')) {
    errors.push({ code: 'FAILED_PRECONDITION', message: 'This run waits for nothing: its last model answer left no deferred tool call (its output is no DeferredToolRequests).' });
  }
  for (const { kind, answer } of answers) {
    if (!answer.ref) {
      errors.push({ code: 'INVALID_ARGUMENT', request: answer.name, message: `Name the tool call id of the ${answer.name} call (${answer.name}#<tool call id>): DeferredToolResults answers calls by their id.` });
      continue;
    }
    checkAnswer({ check, kind, answer, errors, warnings });
  }
  // Pydantic AI compares the whole answer against the paused model answer's calls: those that ran count as answered by the history.
  const expected = requests.flatMap((request) => (request.ref !== undefined ? [request.ref] : []));
  const ran = requests.filter((request) => request.state !== 'interrupted').flatMap((request) => (request.ref !== undefined ? [request.ref] : []));
  const got = new Set([...ran, ...answers.flatMap(({ answer }) => (answer.ref ? [answer.ref] : []))]);
  const missing = requests.filter((request) => request.state === 'interrupted' && request.ref !== undefined && !got.has(request.ref));
  const unknown = [...got].filter((id) => !expected.includes(id));
  if (missing.length > 0 || unknown.length > 0) {
    const what = [
      ...(missing.length > 0 ? [`${missing.map(label).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not answered`] : []),
      ...(unknown.length > 0 ? [`${unknown.join(', ')} ${unknown.length === 1 ? 'is no call' : 'are no calls'} of the paused model answer`] : []),
    ].join('; ');
    errors.push({ code: 'INVALID_ARGUMENT', message: `${what}: Pydantic AI would raise UserError: Tool call results need to be provided for all deferred tool calls. Expected: ${pythonSet(expected)}, got: ${pythonSet(got)}` });
  }
  for (const request of requests.filter((candidate) => candidate.state === 'interrupted')) {
    const mine = answers.filter(({ answer }) => answer.ref === request.ref);
    const approvals = mine.filter(({ kind }) => kind !== 'respond');
    if (approvals.length > 1) {
      warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} has ${approvals.length} approvals (${approvals.map(({ kind }) => kind).join(', ')}): DeferredToolResults.approvals keeps one per call — the last, ${approvals.at(-1)!.kind}.` });
    }
    if (approvals.length > 0 && mine.length > approvals.length) {
      warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} has a result and an approval: Pydantic AI takes the result (DeferredToolResults.calls) and does not run the tool.` });
    }
  }
  return { errors, warnings, payload: { messages: structuredClone(check.context.messages), answer: deferredResultsOf(answers) } };
}

/** What a paused request waits for, from the trace: an approval or the caller's result. */
export function pydanticWaitingFor(request: PendingRequest): { waitingFor?: PendingRequest['waitingFor']; evidence?: string } {
  return request.waitingFor ? { waitingFor: request.waitingFor, evidence: request.waitingEvidence } : {};
}
