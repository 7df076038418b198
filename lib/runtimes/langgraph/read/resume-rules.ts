/**
 * LangGraph's rules for answering a paused run (langgraph 1.2), each checked against LangGraph
 * itself by the answer probe (scripts/fixtures/frameworks/langgraph/probe_answer.py; the table in
 * docs/guides/langgraph.md; answer-probes.capture.test.ts sends every answer through LangGraph). The
 * caller resumes with `graph.invoke(Command(resume={interrupt id: value, …}), config)` on the
 * paused thread:
 * - with several interrupts pending, every key must be a pending interrupt's id — an unknown id, or
 *   the id of a call that did not pause, is refused whole (`RuntimeError: When there are multiple
 *   pending interrupts, you must specify the interrupt id when resuming.`); a subset is fine, the
 *   rest stay pending;
 * - with one pending, a map whose keys are not interrupt ids is taken as the resume value itself;
 * - a value is checked against the interrupt's `response_schema` when the app gave one
 *   (`ValidationError`), and a refused value's siblings already ran;
 * - what a value means is the app's: approve / deny / respond are LangChain's human-in-the-loop
 *   decisions (`{"type": "approve"}`, `{"type": "reject", "message"}`, `{"type": "respond",
 *   "result"}`), offered when the interrupt's schema takes them.
 * Loopscope does not run LangGraph apps: the answer is given as `Command(resume=…)` (resume-snippet.ts).
 */
import type { ResumeIssue } from '../../../contract/resume-answers';
import type { AnswerKind } from '../../../contract/resume-context';
import type { Span } from '../../../spans/span';
import type { ToolCall } from '../../../loop/loop-model';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import type { PendingRequest, ResumeCheck, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { schemaErrors } from '../../../loop/schema-errors';
import type { SpanIndex } from '../../../loop/span-index';
import { graphInterruptsOf, hasGraphInterrupt } from './graph-interrupts';
import { readerOf } from './instrumentation-readers';
import { langGraphAnswerSnippet } from './resume-snippet';

export const LANGGRAPH_ANSWER_KINDS: AnswerKind[] = [
  { kind: 'value', label: 'Resume value (what interrupt() returns: Command(resume={interrupt id: value}))', fields: ['value'] },
  { kind: 'approve', label: 'Approve ({"type": "approve"}: LangChain’s decision)', fields: [] },
  { kind: 'deny', label: 'Deny with a message ({"type": "reject", "message"})', fields: ['reason'] },
  { kind: 'respond', label: 'Respond with the tool’s result ({"type": "respond", "result"})', fields: ['output'] },
];

/** LangGraph's refusal of a map whose keys are not all pending interrupts, while several are pending. */
const MULTIPLE_PENDING = 'RuntimeError: When there are multiple pending interrupts, you must specify the interrupt id when resuming.';

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);

type Answer = { kind: 'approve' | 'deny' | 'respond' | 'value'; name: string; ref?: string; reason?: string; value?: unknown };

/** The resume value an answer stands for: LangChain's decision for approve / deny / respond, the value itself otherwise. */
function resumeValueOf(answer: Answer): unknown {
  if (answer.kind === 'approve') return { type: 'approve' };
  if (answer.kind === 'deny') return { type: 'reject', message: answer.reason ?? '' };
  if (answer.kind === 'respond') return { type: 'respond', result: answer.value };
  return answer.value;
}

/** What a resume value breaks in the interrupt's response_schema, in LangGraph's words, or undefined. */
function schemaProblem(options: { request: PendingRequest; value: unknown; named: string }): ResumeIssue | undefined {
  const problem = options.request.answerSchema === undefined ? undefined : schemaErrors(options.request.answerSchema, options.value);
  return problem ? { code: 'INVALID_ARGUMENT', request: options.named, message: `${options.named}: the resume value breaks the interrupt's response_schema (${problem}): LangGraph would raise ValidationError.` } : undefined;
}

/** Checks answers by LangGraph's rules and builds the `Command(resume=…)` map. */
export function validateLangGraphResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const answers: Answer[] = [
    ...(check.values ?? []).map((answer) => ({ kind: 'value' as const, ...answer })),
    ...(check.approve ?? []).map((answer) => ({ kind: 'approve' as const, ...answer })),
    ...(check.deny ?? []).map((answer) => ({ kind: 'deny' as const, ...answer })),
    ...(check.respond ?? []).map((answer) => ({ kind: 'respond' as const, name: answer.name, ref: answer.ref, value: answer.output })),
  ];
  if ((check.restart ?? []).length > 0) errors.push({ code: 'INVALID_ARGUMENT', message: 'LangGraph has no restart: the interrupted node or tool runs again from its start with any resume value (approve, or a value your app reads as one).' });
  const pending = context.requests.filter((request) => request.state === 'interrupted');
  const resume: Record<string, unknown> = {};
  const byInterrupt: { request: PendingRequest; value: unknown; named: string }[] = [];
  const foreign: string[] = [];
  for (const answer of answers) {
    const named = label(answer);
    if (!answer.ref) {
      errors.push({ code: 'INVALID_ARGUMENT', request: named, message: `Name the tool call id of the ${answer.name} call (${answer.name}#<call id>): Loopscope keys the answer by that call's interrupt id.` });
      continue;
    }
    const request = pending.find((candidate) => candidate.ref === answer.ref);
    const key = request?.pauseId ?? answer.ref;
    if (key in resume) {
      errors.push({ code: 'INVALID_ARGUMENT', request: named, message: `${named} is answered twice: one resume value per interrupt.` });
      continue;
    }
    const value = resumeValueOf(answer);
    resume[key] = value;
    if (!request || request.pauseId === undefined) {
      foreign.push(named);
      continue;
    }
    if (answer.kind !== 'value' && request.answerSchema === undefined) {
      warnings.push({ code: 'WARNING', request: named, message: `${named}: the interrupt has no response_schema — LangGraph hands interrupt() any value; ${JSON.stringify(value)} is LangChain's decision, and your code decides what it means.` });
    }
    byInterrupt.push({ request, value, named });
  }
  if (foreign.length > 0 && pending.length > 1) {
    errors.push({ code: 'FAILED_PRECONDITION', message: `${foreign.join(', ')} ${foreign.length > 1 ? 'are' : 'is'} no pending interrupt (${pending.length} are pending): LangGraph would raise ${MULTIPLE_PENDING}` });
  } else if (foreign.length > 0 && pending.length === 1) {
    // One interrupt pending and a key that is no interrupt id: LangGraph takes the whole map as that interrupt's value.
    const [only] = pending;
    const problem = schemaProblem({ request: only, value: resume, named: label(only) });
    if (problem) errors.push({ ...problem, message: `${foreign.join(', ')} ${foreign.length > 1 ? 'are' : 'is'} no pending interrupt, so LangGraph takes the whole map as ${label(only)}'s resume value — ${problem.message}` });
    else warnings.push({ code: 'WARNING', request: label(only), message: `${foreign.join(', ')} ${foreign.length > 1 ? 'are' : 'is'} no pending interrupt: LangGraph takes the whole map as ${label(only)}'s resume value.` });
  } else {
    const refused = byInterrupt.map((answer) => schemaProblem(answer)).filter((problem): problem is ResumeIssue => problem !== undefined);
    errors.push(...refused);
    if (refused.length > 0 && refused.length < byInterrupt.length) {
      warnings.push({ code: 'WARNING', message: 'LangGraph runs the answered interrupts side by side: the ones answered well run (their side effects happen) before the refused one fails the run.' });
    }
  }
  const left = pending.filter((request) => !byInterrupt.some((answer) => answer.request === request));
  if (answers.length === 0) warnings.push({ code: 'WARNING', message: 'Nothing is answered: LangGraph resumes nothing and the run stays interrupted.' });
  else if (left.length > 0 && foreign.length === 0) {
    warnings.push({ code: 'WARNING', message: `${left.map(label).join(', ')} ${left.length > 1 ? 'stay' : 'stays'} interrupted: LangGraph resumes only the interrupts the map names.` });
  }
  return { errors, warnings, payload: { messages: [], answer: { threadId: context.conversationId ?? null, resume } } };
}

/** The schema an interrupt's answer must keep and how the pause reads, re-read from the paused call's spans. */
function pauseFactsOf(index: SpanIndex): (call: ToolCall) => Partial<PendingRequest> {
  const schemas = new Map<string, unknown>();
  for (const span of index.spans) {
    if (!hasGraphInterrupt(span)) continue;
    for (const interrupt of graphInterruptsOf(span)) if (interrupt.id !== undefined && interrupt.responseSchema !== undefined) schemas.set(interrupt.id, interrupt.responseSchema);
  }
  return (call) => ({
    waitingFor: 'value',
    waitingEvidence: `${call.interrupt?.pausedAs ?? 'an interrupt'}: interrupt() returns the value Command(resume={interrupt id: value}) gives it`,
    ...(call.interrupt?.pauseId !== undefined && schemas.has(call.interrupt.pauseId) ? { answerSchema: schemas.get(call.interrupt.pauseId) } : {}),
  });
}

const threadOf = (root: Span) => readerOf(root).threadOf(root);

/** LangGraph's resume rules, reading contexts with the LangGraph flavor. */
export function langGraphResumeRules(flavor: LoopFlavor): ResumeRules {
  return {
    answerKinds: LANGGRAPH_ANSWER_KINDS,
    snippetLanguage: 'Python',
    elsewhere: { why: 'Loopscope does not run LangGraph apps: your app resumes the paused thread with this Command.' },
    // LangChain's decisions where the interrupt's schema takes them; the value itself otherwise.
    defaultKind: (request) => (request.answerSchema !== undefined && schemaErrors(request.answerSchema, { type: 'approve' }) === undefined ? 'approve' : 'value'),
    waitingFor: (request) => (request.waitingFor ? { waitingFor: request.waitingFor, evidence: request.waitingEvidence } : {}),
    valueExample: ({ request, exampleOf }) => (request.answerSchema !== undefined && schemaErrors(request.answerSchema, { type: 'approve' }) === undefined ? { type: 'approve' } : (exampleOf(request.answerSchema) ?? {})),
    contextOf: (root, index) => loopResumeContext({ flavor, root, index, conversationId: threadOf(root), factsOf: pauseFactsOf(index) }),
    contextOfCall: ({ root, index, call }) => loopResumeContext({ flavor, root, index, call, conversationId: threadOf(root), factsOf: pauseFactsOf(index) }),
    validate: validateLangGraphResume,
    snippet: langGraphAnswerSnippet,
  };
}
