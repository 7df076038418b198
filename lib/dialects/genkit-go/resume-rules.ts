/**
 * genkit Go's rules for answering an interrupt, as measured by sending each kind of answer to the
 * real module (v1.12.0; lib/runtime/genkit-go/go-scenarios.capture.test.ts, "genkit Go's own
 * answer to broken parts"): the respond and restart parts of genkit JS's wire, built the way a Go
 * program builds them (tool.Respond, tool.Resume, the tool's Restart for a new input), checked
 * before anything runs, each broken rule named with genkit Go's own message. Where Go accepts
 * what genkit JS refuses and the run then goes wrong, it is a warning saying what Go will do.
 */
import type { ResumeIssue } from '../../contract/resume-answers';
import { requestLabel } from '../genkit-js/message-parts';
import { resolveRequest, sameRequestName } from '../genkit-js/resume-parts';
import type { PendingRequest, ResumeCheck, ResumeRules, ResumeValidation } from '../resume-model';
import { schemaErrors } from '../schema-errors';
import { GENKIT_GO_BUGS, GENKIT_GO_VERSION } from './known-bugs';
import { TOOL_APPROVAL } from './tool-approval';

const label = requestLabel;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const RESTART_REINTERRUPTED = 'FAILED_PRECONDITION: One or more tools triggered an interrupt during a restarted execution.';

export function validateGoResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const respond = check.respond ?? [];
  const restart = check.restart ?? [];
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const tools = new Map(context.tools.map((tool) => [tool.name, tool]));
  if ((check.approve ?? []).length + (check.deny ?? []).length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: 'genkit Go has no approve / deny: answer an interrupt with a response part (respond) or a restart part (restart) — a ToolApproval hold is approved by a restart with toolApproved: true.' });
  }
  if (!context.requests.some((request) => request.state === 'interrupted')) {
    errors.push({ code: 'FAILED_PRECONDITION', message: 'The last model message has no interrupted tool request: there is nothing to answer.' });
  }
  const answers = [...respond, ...restart];
  for (const request of context.requests) {
    const matching = answers.filter((answer) => sameRequestName(answer, request));
    const resolution = resolveRequest({ request, pending: request.state === 'pending', respond, restart, nameOf: (answer) => answer });
    if (request.state === 'interrupted' && resolution.kind === 'unresolved') {
      warnings.push({
        code: 'WARNING',
        request: label(request),
        message: `${label(request)} is not answered, and ${GENKIT_GO_VERSION} does not refuse that (genkit JS does): the model is sent the interrupted request with no response.`,
      });
    }
    if (matching.length > 1) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${label(request)} is answered ${matching.length} times: genkit Go checks the response part against the tool's output schema and then takes it, never the restart — give one answer.` });
    }
    if (request.state !== 'interrupted' && matching.length > 0) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${label(request)} was not interrupted (it finished${request.state === 'pending' ? ': its pendingOutput is reused' : ''}): tool.Respond / tool.Resume refuse it ("part is not an interrupted tool request").` });
    }
  }
  for (const answer of answers) {
    if (!context.requests.some((request) => sameRequestName(request, answer))) {
      errors.push({ code: 'NOT_FOUND', request: label(answer), message: `The last model message has no tool request ${label(answer)}: tool.Respond / tool.Resume need the interrupted part.` });
    }
  }
  for (const answer of respond) {
    const definition = tools.get(answer.name);
    const problem = schemaErrors(definition?.outputSchema, answer.output);
    if (problem) {
      const envelope = definition?.metadata?.multipart === true;
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(answer),
        message: `handleResumedToolRequest: tool "${answer.name}" output validation failed: ${problem} (genkit Go checks a response part against the output schema the tool was offered with${envelope ? `; ${GENKIT_GO_BUGS.typedToolEnvelope(answer.name)}` : ''}).`,
      });
    }
  }
  for (const answer of restart) {
    const request = context.requests.find((candidate) => sameRequestName(candidate, answer));
    // `true` is the tool's Restart default (no ResumedMetadata): no data, not a wrong shape.
    const noData = answer.resumed === undefined || answer.resumed === true;
    if (!noData && !isObject(answer.resumed)) {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(answer),
        message: `tool.Resume: resume data must serialize to a JSON object (a struct or map): the resume data of ${label(answer)} is ${JSON.stringify(answer.resumed)}.`,
      });
    }
    const hold = request?.heldBy;
    if (hold && !(isObject(answer.resumed) && answer.resumed[TOOL_APPROVAL.approvedKey] === true)) {
      errors.push({
        code: 'FAILED_PRECONDITION',
        request: label(answer),
        message: `${label(answer)} is held by ${hold.by}: a restart without ${TOOL_APPROVAL.approvedKey}: true in its resume data is held again, and genkit Go fails the generate (${RESTART_REINTERRUPTED}). Approve with {"${TOOL_APPROVAL.approvedKey}": true}, or refuse with a response part.`,
      });
    }
    const typed = check.localTools?.get(answer.name);
    if (!hold && isObject(answer.resumed) && typed?.resumeSchema) {
      const problem = schemaErrors(typed.resumeSchema, answer.resumed);
      if (problem) {
        errors.push({
          code: 'INVALID_ARGUMENT',
          request: label(answer),
          message: `The resume data of ${label(answer)} does not fit its Go resume type ${typed.resumeType ?? ''}: ${problem} (genkit Go fails the tool: "aix.wrapInterruptibleFunc: failed to convert resumed data").`,
        });
      }
    }
    if (noData && !hold) {
      warnings.push({
        code: 'WARNING',
        request: label(answer),
        message: `${label(answer)} is restarted with no resume data: a typed tool receives an empty resume value (a stable one: ToolContext.Resumed is an empty map, every ResumedValue missing); if the tool interrupts again, genkit Go fails the generate (${RESTART_REINTERRUPTED}).`,
      });
    }
    if (answer.replaceInput !== undefined) {
      const problem = schemaErrors(tools.get(answer.name)?.inputSchema, answer.replaceInput);
      if (problem) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `The new input of ${label(answer)} does not match the tool's input schema: ${problem} (genkit Go fails the tool: "invalid input to action … data did not match expected schema").` });
      warnings.push({ code: 'WARNING', request: label(answer), message: GENKIT_GO_BUGS.replaceInputKeepsHistory(answer.name) });
    }
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
  return { errors, warnings, payload: { messages: structuredClone(context.messages), resume: { respond: payloadRespond, restart: payloadRestart } } };
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
