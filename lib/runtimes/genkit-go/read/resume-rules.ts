/**
 * genkit Go's rules for answering an interrupt, as measured by sending each kind of answer to the
 * real module (v1.12.0; every row of the table in lib/runtimes/genkit-go/read/resume-verdicts.capture.test.ts):
 * the respond and restart parts of genkit JS's wire, built the way a Go program builds them
 * (tool.Respond, tool.Resume, the tool's Restart for a new input), each broken rule named with
 * genkit Go's own message. genkit Go resolves each request of the interrupted message on its own
 * (ai/generate.go handleResumedToolRequest): a parked pendingOutput is reused, else the first
 * response part for it is taken, else the first restart part runs the tool, else the resume is
 * refused — unless nothing at all was answered, which genkit Go does not treat as a resume. Where
 * Go accepts and the run then goes differently from what the answer suggests, it is a warning
 * saying what Go will do; what cannot be known from the trace is unchecked, saying why.
 */
import type { ResumeIssue } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { requestLabel } from '../../genkit-js/read/message-parts';
import { resolveRequest, sameRequestName } from '../../genkit-js/read/resume-parts';
import type { PendingRequest, ResumeCheck, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { goSchemaMismatch, goSchemaProblems } from './go-schema-problems';
import { GENKIT_GO_BUGS, GENKIT_GO_VERSION } from './known-bugs';
import { isMultipartEnvelope } from './multipart-envelope';
import { resumeDataIssue } from './resume-data-check';
import { TOOL_APPROVAL } from './tool-approval';

const label = requestLabel;
const RESTART_REINTERRUPTED = 'FAILED_PRECONDITION: One or more tools triggered an interrupt during a restarted execution.';
const UNRESOLVED = 'was not handled by the Resume argument; you must supply Respond or Restart directives, or ensure there is pending output from a previous tool call';

/** Go's `%T` of resume data decoded from JSON, as tool.Resume names it. */
function goTypeOf(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

export function validateGoResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const respond = check.respond ?? [];
  const restart = check.restart ?? [];
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const unchecked: ResumeIssue[] = [];
  if ((check.approve ?? []).length + (check.deny ?? []).length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: 'genkit Go has no approve / deny: answer an interrupt with a response part (respond) or a restart part (restart) — a ToolApproval hold is approved by a restart with toolApproved: true.' });
  }
  if (!context.requests.some((request) => request.state === 'interrupted')) {
    errors.push({ code: 'FAILED_PRECONDITION', message: 'The last model message has no interrupted tool request: there is nothing to answer.' });
  }
  const answers = [...respond, ...restart];
  // The part-building calls come first, for every answer given: a Go program cannot build a part for a request that is not interrupted.
  for (const answer of answers) {
    if (!context.requests.some((request) => sameRequestName(request, answer))) {
      errors.push({ code: 'NOT_FOUND', request: label(answer), message: `The last model message has no tool request ${label(answer)}: tool.Respond / tool.Resume need the interrupted part.` });
    }
  }
  for (const answer of restart) {
    // `true` is the tool's Restart default and null no data either (RestartOptions without ResumedMetadata): no data, not a wrong shape.
    const noData = answer.resumed === undefined || answer.resumed === true || answer.resumed === null;
    if (!noData && !isObject(answer.resumed)) {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(answer),
        message: `tool.Resume: resume data must serialize to a JSON object (a struct or map), got ${goTypeOf(answer.resumed)}: the resume data of ${label(answer)} is ${JSON.stringify(answer.resumed)}.`,
      });
    }
  }
  for (const request of context.requests) {
    const matching = answers.filter((answer) => sameRequestName(answer, request));
    if (request.state !== 'interrupted' && matching.length > 0) {
      const builder = respond.some((answer) => sameRequestName(answer, request)) ? 'tool.Respond' : 'tool.Resume';
      errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${builder}: part is not an interrupted tool request — ${label(request)} was not interrupted (it finished${request.state === 'pending' ? ': its pendingOutput is reused' : ''}), so genkit Go builds no answer for it.` });
      continue;
    }
    const resolution = resolveRequest({ request, pending: request.state === 'pending', respond, restart, nameOf: (answer) => answer });
    if (resolution.kind === 'pending') continue;
    if (resolution.kind === 'unresolved') {
      if (answers.length === 0) {
        if (request.state === 'interrupted') {
          warnings.push({
            code: 'WARNING',
            request: label(request),
            message: `${label(request)} is not answered, and nothing else is: ${GENKIT_GO_VERSION} does not treat that as a resume (genkit JS refuses it) and sends the model the interrupted request with no response.`,
          });
        }
      } else {
        errors.push({
          code: 'INVALID_ARGUMENT',
          request: label(request),
          message: `unresolved tool request "${GENKIT_GO_BUGS.unresolvedName(request)}" ${UNRESOLVED} — ${label(request)} has no answer: once anything is answered, genkit Go refuses a resume that leaves a request of the interrupted message unanswered. Answer it too${request.ref ? ` (genkit Go's message names it by its ref alone)` : ''}.`,
        });
      }
      continue;
    }
    if (matching.length > 1) {
      const ignoredRestart = resolution.kind === 'respond' && restart.some((answer) => sameRequestName(answer, request));
      warnings.push({
        code: 'WARNING',
        request: label(request),
        message: `${label(request)} is answered ${matching.length} times: genkit Go takes the first ${resolution.kind === 'respond' ? 'response part (checked against the output schema)' : 'restart part'} and ignores the others${ignoredRestart ? `, so ${request.name} is not run again — a response part wins over a restart part` : ''}.`,
      });
    }
    if (resolution.kind === 'respond') checkResponse({ answer: resolution.answer, context, errors, warnings });
    else checkRestart({ answer: resolution.answer, request, check, errors, warnings, unchecked });
  }
  // The parts genkit Go builds (v1.12.0 ai/exp/tool, ai/tools.go): a response part marked
  // interruptResponse; a restart drops `interrupt`, sets `resumed` (true without data) and keeps a
  // replaced input's original.
  const payloadRespond = respond.map((answer) => ({ toolResponse: { name: answer.name, ref: answer.ref, output: answer.output }, metadata: { interruptResponse: true } }));
  const payloadRestart = restart.map((answer) => {
    const request = context.requests.find((candidate) => sameRequestName(candidate, answer));
    return {
      toolRequest: { name: answer.name, ref: answer.ref, input: answer.replaceInput ?? request?.input },
      metadata: { resumed: answer.resumed ?? true, ...(answer.replaceInput !== undefined ? { replacedInput: request?.input } : {}) },
    };
  });
  return { errors, warnings, unchecked, payload: { messages: structuredClone(context.messages), resume: { respond: payloadRespond, restart: payloadRestart } } };
}

type Issues = { errors: ResumeIssue[]; warnings: ResumeIssue[] };
type Respond = NonNullable<ResumeCheck['respond']>[number];
type Restart = NonNullable<ResumeCheck['restart']>[number];

/** The response part genkit Go takes: validated against the output schema the tool was offered with (gojsonschema, every problem listed). */
function checkResponse(options: Issues & { answer: Respond; context: ResumeCheck['context'] }): void {
  const { answer, context, errors, warnings } = options;
  const definition = context.tools.find((tool) => tool.name === answer.name);
  const multipart = definition?.metadata?.multipart === true;
  const problems = goSchemaProblems({ schema: definition?.outputSchema, value: answer.output });
  if (problems.length > 0) {
    errors.push({
      code: 'INVALID_ARGUMENT',
      request: label(answer),
      message: `handleResumedToolRequest: tool "${answer.name}" output validation failed: ${goSchemaMismatch(problems)}\n(genkit Go checks a response part against the output schema the tool was offered with${multipart ? `; ${GENKIT_GO_BUGS.typedToolEnvelope(answer.name)}` : ''}.)`,
    });
  } else if (multipart && isMultipartEnvelope(answer.output)) {
    warnings.push({ code: 'WARNING', request: label(answer), message: GENKIT_GO_BUGS.envelopeSeenByModel(answer.name) });
  }
}

/** The restart part genkit Go runs: past a hold only with toolApproved, its data converted for a typed tool, its new input validated. */
function checkRestart(options: Issues & { answer: Restart; request: PendingRequest; check: ResumeCheck; unchecked: ResumeIssue[] }): void {
  const { answer, request, check, errors, warnings, unchecked } = options;
  const definition = check.context.tools.find((tool) => tool.name === answer.name);
  const data = isObject(answer.resumed) ? answer.resumed : undefined;
  const hold = request.heldBy;
  if (hold && data?.[TOOL_APPROVAL.approvedKey] !== true) {
    errors.push({
      code: 'FAILED_PRECONDITION',
      request: label(answer),
      message: `${label(answer)} is held by ${hold.by}: a restart without ${TOOL_APPROVAL.approvedKey}: true in its resume data is held again, and genkit Go fails the generate (${RESTART_REINTERRUPTED}). Approve with {"${TOOL_APPROVAL.approvedKey}": true}, or refuse with a response part.`,
    });
    return;
  }
  // What reaches the tool: past a hold, the data less the key the hook read (any Go type takes an unknown field).
  const fields = data && hold ? Object.fromEntries(Object.entries(data).filter(([key]) => key !== TOOL_APPROVAL.approvedKey)) : data;
  if (fields && Object.keys(fields).length > 0) {
    const issue = resumeDataIssue({ request: label(answer), tool: answer.name, data: fields, known: check.localTools?.get(answer.name), definition });
    if (issue?.code === 'UNCHECKED') unchecked.push(issue);
    else if (issue) errors.push(issue);
  }
  const noData = answer.resumed === undefined || answer.resumed === true || answer.resumed === null;
  if (noData && !hold) {
    warnings.push({
      code: 'WARNING',
      request: label(answer),
      message: `${label(answer)} is restarted with no resume data: a typed tool receives an empty resume value (a stable one: ToolContext.Resumed is an empty map, every ResumedValue missing); if the tool interrupts again, genkit Go fails the generate (${RESTART_REINTERRUPTED}).`,
    });
  }
  if (answer.replaceInput !== undefined) {
    const problems = goSchemaProblems({ schema: definition?.inputSchema, value: answer.replaceInput });
    if (problems.length > 0) {
      errors.push({
        code: 'INTERNAL',
        request: label(answer),
        message: `tool "${answer.name}" failed: error calling tool ${answer.name}: invalid input to action "/tool.v2/${answer.name}": ${goSchemaMismatch(problems)}\n(the new input of ${label(answer)} does not match the tool's input schema: genkit Go fails the tool.)`,
      });
    }
    warnings.push({ code: 'WARNING', request: label(answer), message: GENKIT_GO_BUGS.replaceInputKeepsHistory(answer.name) });
  }
}

/** A hold waits for an approval: a restart that releases it; any other interrupt for an answer. */
export const goWaitingFor: NonNullable<ResumeRules['waitingFor']> = (request) =>
  request.heldBy ? { waitingFor: 'approval', evidence: `${request.heldBy.by} holds it — ${request.heldBy.evidence}` } : {};

export function goDefaultKind(request: PendingRequest): 'respond' | 'restart' {
  return request.heldBy ? 'restart' : 'respond';
}

/** The resume data a restart starts from: what releases a hold; for a typed tool, a value of its resume type. */
export const goResumedExample: NonNullable<ResumeRules['resumedExample']> = ({ request, localTools, exampleOf }) => {
  if (request.heldBy) return request.heldBy.release;
  const schema = localTools?.get(request.name)?.resumeSchema;
  return schema ? exampleOf(schema) : undefined;
};

/** How a restart's data reaches the tool: past a hold, read by the hook; for a typed tool, converted to its Go resume type. */
export const goResumedAs: NonNullable<ResumeRules['resumedAs']> = (request, localTools) => {
  if (request.heldBy) return `${request.heldBy.by} reads ${TOOL_APPROVAL.approvedKey} from it; past the hook, ${request.name} runs (its ToolContext.Resumed holds this data).`;
  const typed = localTools?.get(request.name);
  if (typed?.resumeType) return `${request.name} receives it as a ${typed.resumeType} (json.Unmarshal: a field it lacks is ignored, one it has but missing is its zero value, a wrong type fails the tool).`;
  return undefined;
};
