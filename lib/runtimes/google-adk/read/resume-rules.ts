/**
 * Google ADK's rules for answering a paused run (google-adk 2.13), each checked against ADK itself
 * by the answer probe (scripts/fixtures/frameworks/google-adk/probe_answer.py; the table in
 * docs/guides/google-adk.md; answer-probes.capture.test.ts sends every answer through ADK). The
 * caller continues the run with one `Runner.run_async` on the same session whose message holds a
 * `FunctionResponse` per answered call:
 * - a confirmation (`require_confirmation`, `request_confirmation`) is answered by a response to
 *   ADK's `adk_request_confirmation` call: approve `{confirmed: true}`, deny `{confirmed: false}`
 *   (ToolConfirmation has no field for a message), or a value that is a ToolConfirmation (`hint`,
 *   `confirmed` — pydantic's lax bool: "yes", 1 pass —, `payload`; any other field is refused);
 *   the caller may also answer the tool call itself with its result (the tool never runs);
 * - a long-running call is answered by its final result, any JSON object;
 * - every response must be an object (google-genai refuses anything else before ADK sees it) and
 *   name a function call of the session (else ADK raises `ValueError: Function call not found…`);
 * - a partial answer is accepted, and the confirmations it leaves are dropped, never asked again —
 *   also when the answer names a call that did not pause.
 * Loopscope does not run ADK apps: the answer is given as the app's own Python (resume-snippet.ts).
 */
import type { ResumeIssue } from '../../../contract/resume-answers';
import type { AnswerKind } from '../../../contract/resume-context';
import { isObject } from '../../../spans/json-value';
import type { ToolCall } from '../../../loop/loop-model';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import type { PendingRequest, ResumeCheck, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { ADK_PAUSES, CONFIRMATION_FUNCTION } from './adk-words';
import { adkAnswerSnippet, type AdkFunctionResponse } from './resume-snippet';

export const ADK_ANSWER_KINDS: AnswerKind[] = [
  { kind: 'approve', label: 'Approve (confirmed: true — ADK runs the tool)', fields: [] },
  { kind: 'deny', label: 'Deny (confirmed: false — ADK does not run the tool)', fields: [] },
  { kind: 'respond', label: 'Respond (the caller’s FunctionResponse — the tool does not run)', fields: ['output'] },
  { kind: 'value', label: 'Resume value (the response ADK gets as it is: a ToolConfirmation for a confirmation)', fields: ['value'] },
];

/** The fields of ADK's `ToolConfirmation` (extra fields are forbidden). */
const TOOL_CONFIRMATION_FIELDS = new Set(['hint', 'confirmed', 'payload']);

/** The strings pydantic's lax mode reads as a bool. */
const LAX_BOOLEANS = new Set(['0', 'off', 'f', 'false', 'n', 'no', '1', 'on', 't', 'true', 'y', 'yes']);

/** Whether pydantic (lax mode) reads the value as a bool, as ToolConfirmation.confirmed is read. */
function readsAsBool(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return value === 0 || value === 1;
  return typeof value === 'string' && LAX_BOOLEANS.has(value.trim().toLowerCase());
}

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);
const isConfirmation = (request: PendingRequest) => request.state === 'interrupted' && request.waitingFor === 'approval';
const isLongRunning = (request: PendingRequest) => request.state === 'interrupted' && request.waitingFor === 'result';

const notAnObject = (request: string): ResumeIssue => ({
  code: 'INVALID_ARGUMENT',
  request,
  message: `${request}: a FunctionResponse's response must be a JSON object — google-genai refuses anything else before ADK sees it (ValidationError: 1 validation error for FunctionResponse).`,
});

/** What a ToolConfirmation value breaks, in ADK's words, or undefined. */
function toolConfirmationProblem(request: string, value: Record<string, unknown>): ResumeIssue | undefined {
  const extra = Object.keys(value).filter((key) => !TOOL_CONFIRMATION_FIELDS.has(key));
  if (extra.length > 0) return { code: 'INVALID_ARGUMENT', request, message: `${request}: ToolConfirmation has no field ${extra.join(', ')} (extra fields are forbidden): ADK would raise ValidationError: 1 validation error for ToolConfirmation.` };
  if ('confirmed' in value && !readsAsBool(value.confirmed)) return { code: 'INVALID_ARGUMENT', request, message: `${request}: confirmed is ${JSON.stringify(value.confirmed)}, which pydantic does not read as a bool: ADK would raise ValidationError: 1 validation error for ToolConfirmation.` };
  if ('hint' in value && typeof value.hint !== 'string') return { code: 'INVALID_ARGUMENT', request, message: `${request}: hint must be a string: ADK would raise ValidationError: 1 validation error for ToolConfirmation.` };
  return undefined;
}

type Answer = { kind: 'approve' | 'deny' | 'respond' | 'value'; name: string; ref?: string; reason?: string; value?: unknown };

/** Checks answers by ADK's rules and builds the FunctionResponses of the answering message. */
export function validateAdkResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const answers: Answer[] = [
    ...(check.approve ?? []).map((answer) => ({ kind: 'approve' as const, ...answer })),
    ...(check.deny ?? []).map((answer) => ({ kind: 'deny' as const, ...answer })),
    ...(check.respond ?? []).map((answer) => ({ kind: 'respond' as const, name: answer.name, ref: answer.ref, value: answer.output })),
    ...(check.values ?? []).map((answer) => ({ kind: 'value' as const, name: answer.name, ref: answer.ref, value: answer.value })),
  ];
  if ((check.restart ?? []).length > 0) errors.push({ code: 'INVALID_ARGUMENT', message: 'Google ADK has no restart: approve a confirmation (confirmed: true) and ADK runs the tool.' });
  if (answers.length === 0) errors.push({ code: 'INVALID_ARGUMENT', message: 'No answer: ADK continues the run with a message of FunctionResponses — approve, deny, respond or give a value for a paused call.' });
  const responses: AdkFunctionResponse[] = [];
  const answered = new Set<string>();
  for (const answer of answers) {
    const named = label(answer);
    if (!answer.ref) {
      errors.push({ code: 'INVALID_ARGUMENT', request: named, message: `Name the tool call id of the ${answer.name} call (${answer.name}#<call id>): ADK matches a FunctionResponse to its call by id.` });
      continue;
    }
    if (answered.has(answer.ref)) {
      errors.push({ code: 'INVALID_ARGUMENT', request: named, message: `${named} is answered twice: one FunctionResponse per call.` });
      continue;
    }
    answered.add(answer.ref);
    const request = context.requests.find((candidate) => candidate.ref === answer.ref);
    if (!request) {
      errors.push({ code: 'NOT_FOUND', request: named, message: `ADK would raise ValueError: Function call not found for function response ids: {'${answer.ref}'}. No call of the paused run has that id.` });
      continue;
    }
    const tool = { id: answer.ref, name: request.name };
    if (isConfirmation(request)) {
      const confirmation = { confirms: answer.ref, name: CONFIRMATION_FUNCTION };
      if (answer.kind === 'approve') responses.push({ ...confirmation, response: { confirmed: true } });
      else if (answer.kind === 'deny') {
        responses.push({ ...confirmation, response: { confirmed: false } });
        if (answer.reason) warnings.push({ code: 'WARNING', request: named, message: `${named}: ToolConfirmation has no field for a message — the reason is not sent; the model sees only that the call was rejected.` });
      } else if (!isObject(answer.value)) errors.push(notAnObject(named));
      else if (answer.kind === 'respond') responses.push({ ...tool, response: answer.value });
      else {
        const problem = toolConfirmationProblem(named, answer.value);
        if (problem) errors.push(problem);
        else responses.push({ ...confirmation, response: answer.value });
      }
      continue;
    }
    if (answer.kind === 'approve' || answer.kind === 'deny') {
      responses.push({ ...tool, response: { approved: answer.kind === 'approve', ...(answer.reason ? { message: answer.reason } : {}) } });
      warnings.push({ code: 'WARNING', request: named, message: `${named} waits for no confirmation: ADK gives ${answer.kind} no meaning here, and sends it as the tool's response ({"approved": ${answer.kind === 'approve'}}).` });
    } else if (!isObject(answer.value)) errors.push(notAnObject(named));
    else responses.push({ ...tool, response: answer.value });
  }
  const confirmations = context.requests.filter(isConfirmation);
  const sent = new Set(responses.map((response) => response.confirms ?? response.id));
  const dropped = confirmations.filter((request) => request.ref !== undefined && !sent.has(request.ref));
  if (dropped.length > 0 && responses.length > 0) {
    warnings.push({
      code: 'WARNING',
      message: `ADK drops the confirmation${dropped.length > 1 ? 's' : ''} this answer leaves (${dropped.map(label).join(', ')}): ${dropped.length > 1 ? 'they are' : 'it is'} never asked again, and the tool never runs.`,
    });
  }
  const notes = responses.some((response) => response.confirms !== undefined)
    ? [`ADK answers a confirmation by the id of its ${CONFIRMATION_FUNCTION} function call, which no span records: the code finds it in the session's events.`]
    : [];
  return { errors, warnings, payload: { messages: [], answer: { sessionId: context.conversationId ?? null, functionResponses: responses }, ...(notes.length > 0 ? { notes } : {}) } };
}

/** What an ADK pause waits for: a confirmation, or a long-running call's final result. */
function pauseFacts(call: ToolCall): Partial<PendingRequest> {
  if (call.interrupt?.pausedAs === ADK_PAUSES.longRunning) {
    return { waitingFor: 'result', waitingEvidence: 'a LongRunningFunctionTool (gen_ai.tool.type): ADK gave the model its interim result; the caller sends the final one as its FunctionResponse' };
  }
  return { waitingFor: 'approval', waitingEvidence: `${call.interrupt?.pausedAs ?? 'a confirmation'}: ADK waits for a FunctionResponse to its ${CONFIRMATION_FUNCTION} call` };
}

/** ADK's resume rules, reading contexts with the ADK flavor. */
export function adkResumeRules(flavor: LoopFlavor): ResumeRules {
  return {
    answerKinds: ADK_ANSWER_KINDS,
    snippetLanguage: 'Python',
    elsewhere: { why: 'Loopscope does not run Google ADK apps: your app continues the paused run with this message (Runner.run_async on the same session).' },
    defaultKind: (request) => (request.waitingFor === 'result' ? 'respond' : 'approve'),
    waitingFor: (request) => (request.waitingFor ? { waitingFor: request.waitingFor, evidence: request.waitingEvidence } : {}),
    valueExample: ({ request }) => (isLongRunning(request) ? {} : { confirmed: true }),
    contextOf: (root, index) => loopResumeContext({ flavor, root, index, allTurns: true, conversationId: stringAttribute(root.attributes[GEN_AI.conversationId]), factsOf: pauseFacts }),
    contextOfCall: ({ root, index, call }) => loopResumeContext({ flavor, root, index, call, allTurns: true, conversationId: stringAttribute(root.attributes[GEN_AI.conversationId]), factsOf: pauseFacts }),
    validate: validateAdkResume,
    snippet: adkAnswerSnippet,
  };
}
