/**
 * genkit Go 1.4.0's rules for answering an interrupt, as measured by sending each kind of answer
 * to the real module (docs/interrupt-model.md, "genkit Go"): the same respond and restart parts
 * as genkit JS (the wire is JS's), checked before anything runs, each broken rule named with
 * genkit Go's own message where it has one. Where Go accepts what genkit JS refuses, and the
 * run then goes wrong, it is a warning saying what Go will do.
 */
import type { ResumeIssue } from '../../contract/resume-answers';
import { requestLabel } from '../genkit-js/message-parts';
import { resolveRequest, sameRequestName } from '../genkit-js/resume-parts';
import type { ResumeCheck, ResumeValidation } from '../resume-model';
import { schemaErrors } from '../schema-errors';
import { GENKIT_GO_VERSION } from './known-bugs';

const label = requestLabel;
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

export function validateGoResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const respond = check.respond ?? [];
  const restart = check.restart ?? [];
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const tools = new Map(context.tools.map((tool) => [tool.name, tool]));
  if ((check.approve ?? []).length + (check.deny ?? []).length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: 'genkit Go has no approve / deny: answer an interrupt with a response part (respond) or a restart part (restart).' });
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
      warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} is answered ${matching.length} times: genkit Go takes the response part and ignores the restart.` });
    }
    if (request.state !== 'interrupted' && matching.length > 0) {
      warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} was not interrupted (it finished: its output is reused); genkit Go ignores this answer.` });
    }
  }
  for (const answer of answers) {
    if (!context.requests.some((request) => sameRequestName(request, answer))) {
      errors.push({ code: 'NOT_FOUND', request: label(answer), message: `The last model message has no tool request ${label(answer)}: ToolDef.Respond / Restart need the interrupted part.` });
    }
  }
  for (const answer of respond) {
    const problem = schemaErrors(tools.get(answer.name)?.outputSchema, answer.output);
    if (problem) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `handleResumedToolRequest: tool "${answer.name}" output validation failed: ${problem} (genkit Go checks a response part against the tool's output schema).` });
    }
  }
  for (const answer of restart) {
    // `true` is ToolDef.Restart's own default (no ResumedMetadata): no data, not a wrong shape.
    const noData = answer.resumed === undefined || answer.resumed === true;
    if (!noData && !isObject(answer.resumed)) {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(answer),
        message: `The resumed data of ${label(answer)} must be a JSON object: genkit Go's ToolContext.Resumed is map[string]any, and ${JSON.stringify(answer.resumed)} never reaches the tool (it runs as if not resumed).`,
      });
    }
    if (noData) {
      warnings.push({
        code: 'WARNING',
        request: label(answer),
        message: `${label(answer)} is restarted with no resumed data: its ToolContext.Resumed is an empty map (IsResumed() is true, every ResumedValue is missing); if the tool interrupts again, genkit Go fails the generate (FAILED_PRECONDITION: One or more tools triggered an interrupt during a restarted execution.).`,
      });
    }
    if (answer.replaceInput !== undefined) {
      const problem = schemaErrors(tools.get(answer.name)?.inputSchema, answer.replaceInput);
      if (problem) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `The new input of ${label(answer)} does not match the tool's input schema: ${problem} (genkit Go fails the tool with "data did not match expected schema").` });
      warnings.push({ code: 'WARNING', request: label(answer), message: `${GENKIT_GO_VERSION}: the restart runs the tool with the new input, but the history the model sees keeps the original input and records no replacedInput.` });
    }
  }
  // The parts genkit Go's ToolDef.Respond / ToolDef.Restart build (v1.4.0 ai/tools.go): a restart
  // drops `interrupt`, sets `resumed` (true without data) and keeps a replaced input's original.
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
