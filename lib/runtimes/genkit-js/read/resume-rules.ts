/**
 * genkit's resume rules (docs/interrupt-model.md §3), checked before anything runs: every
 * interrupted request answered exactly once (by genkit's rule: a parked pendingOutput wins,
 * then respond, then restart — resume-parts.ts), answers only to requests of the last model
 * message, outputs and replacement inputs against the tool's schemas; and genkit 1.42's
 * pitfalls (known-bugs.ts) as warnings. Builds the exact payload genkit gets.
 */
import type { ResumeCheck, ResumeIssue, ResumeValidation } from '../../../loop/resume-model';
import { GENKIT_BUGS } from './known-bugs';
import { requestLabel } from './message-parts';
import { resolveRequest, sameRequestName } from './resume-parts';
import { schemaErrors } from '../../../loop/schema-errors';

const label = requestLabel;
const sameRequest = sameRequestName;


/**
 * Checks respond / restart answers against genkit 1.42's rules before anything runs, and
 * builds the payload. Errors are what genkit would refuse (with its own message where it has
 * one); warnings are what genkit accepts but gets wrong (docs/interrupt-model.md §7).
 */
export function validateGenkitResume(options: ResumeCheck): ResumeValidation {
  const { context } = options;
  const respond = options.respond ?? [];
  const restart = options.restart ?? [];
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const tools = new Map(context.tools.map((tool) => [tool.name, tool]));

  if (context.requests.length === 0) {
    errors.push({
      code: 'FAILED_PRECONDITION',
      message: "Cannot 'resume' generation unless the previous message is a model message with at least one tool request.",
    });
  }

  const answers = [...respond.map((answer) => ({ kind: 'respond' as const, answer })), ...restart.map((answer) => ({ kind: 'restart' as const, answer }))];
  for (const request of context.requests) {
    const matching = answers.filter(({ answer }) => sameRequest(answer, request));
    // What genkit will do with this request: the one rule of resume-parts.ts.
    const resolution = resolveRequest({ request, pending: request.state === 'pending', respond, restart, nameOf: (answer) => answer });
    if (request.state === 'interrupted' && resolution.kind === 'unresolved') {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(request),
        message: `Unresolved tool request '${label(request)}' was not handled by the 'resume' argument. You must supply replies or restarts for all interrupted tool requests.`,
      });
    }
    if (matching.length > 1) errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${label(request)} is answered ${matching.length} times; answer each interrupted request exactly once.` });
    if (resolution.kind === 'pending' && matching.length > 0) {
      warnings.push({ code: 'WARNING', request: label(request), message: `${label(request)} already finished (its pendingOutput is reused); genkit ignores this answer.` });
    }
    if (request.state === 'done' && matching.length > 0) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${label(request)} was not interrupted: there is nothing to answer.` });
    }
  }
  for (const { answer } of answers) {
    if (!context.requests.some((request) => sameRequest(request, answer))) {
      errors.push({ code: 'NOT_FOUND', request: label(answer), message: `The last model message has no tool request ${label(answer)}.` });
    }
  }

  for (const answer of respond) {
    const problem = schemaErrors(tools.get(answer.name)?.outputSchema, answer.output);
    if (problem) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `Respond output for ${label(answer)} does not match the tool's output schema: ${problem}.` });
  }
  for (const answer of restart) {
    if (answer.replaceInput !== undefined) {
      const problem = schemaErrors(tools.get(answer.name)?.inputSchema, answer.replaceInput);
      if (problem) errors.push({ code: 'INVALID_ARGUMENT', request: label(answer), message: `replaceInput for ${label(answer)} does not match the tool's input schema: ${problem}.` });
      warnings.push({ code: 'WARNING', request: label(answer), message: GENKIT_BUGS[2].resumeWarning() });
    }
    if (options.localTools?.get(answer.name)?.restartable === false) {
      warnings.push({ code: 'WARNING', request: label(answer), message: GENKIT_BUGS[1].resumeWarning(answer.name) });
    }
  }
  const refless = new Map<string, number>();
  for (const request of context.requests) if (request.state === 'interrupted' && !request.ref) refless.set(request.name, (refless.get(request.name) ?? 0) + 1);
  for (const [name, count] of refless) {
    if (count > 1) warnings.push({ code: 'WARNING', message: GENKIT_BUGS[4].resumeWarning(count, name) });
  }

  // The parts genkit's own tool.respond / tool.restart build.
  const payloadRespond = respond.map((answer) => ({ toolResponse: { name: answer.name, ref: answer.ref, output: answer.output }, metadata: { interruptResponse: true } }));
  const payloadRestart = restart.map((answer) => {
    const request = context.requests.find((candidate) => sameRequest(candidate, answer));
    return {
      toolRequest: { name: answer.name, ref: answer.ref, input: answer.replaceInput ?? request?.input },
      metadata: {
        ...(request?.interruptMetadata !== undefined ? { interrupt: request.interruptMetadata } : {}),
        resumed: answer.resumed ?? true,
        ...(answer.replaceInput !== undefined ? { replacedInput: request?.input } : {}),
      },
    };
  });
  return { errors, warnings, payload: { messages: structuredClone(context.messages), resume: { respond: payloadRespond, restart: payloadRestart } } };
}
