import Ajv from 'ajv';
import type { ResumeContext } from './resume-context';

export interface RespondAnswer {
  name: string;
  ref?: string;
  output: unknown;
}

export interface RestartAnswer {
  name: string;
  ref?: string;
  resumed?: unknown;
  replaceInput?: unknown;
}

/** One broken rule (error) or known genkit pitfall (warning), with genkit's own code. */
export interface ResumeIssue {
  code: 'FAILED_PRECONDITION' | 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'WARNING';
  /** `name#ref` the issue is about, when it is about one request. */
  request?: string;
  message: string;
}

export interface ResumeValidation {
  errors: ResumeIssue[];
  warnings: ResumeIssue[];
  /** The exact payload genkit would get: `ai.generate({ messages, resume })`. */
  payload: { messages: unknown[]; resume: { respond: unknown[]; restart: unknown[] } };
}

const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);
const sameRequest = (a: { name: string; ref?: string }, b: { name: string; ref?: string }) => a.name === b.name && (a.ref ?? '') === (b.ref ?? '');

function schemaErrors(schema: unknown, value: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const validate = new Ajv({ allErrors: false, strict: false }).compile(rest);
  if (validate(value)) return undefined;
  const [first] = validate.errors ?? [];
  return first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}` : 'does not match the schema';
}

/**
 * Checks respond / restart answers against genkit 1.42's rules before anything runs, and
 * builds the payload. Errors are what genkit would refuse (with its own message where it has
 * one); warnings are what genkit accepts but gets wrong (INTERRUPT-MODEL.md §7).
 */
export function validateResume(options: {
  context: ResumeContext;
  respond?: RespondAnswer[];
  restart?: RestartAnswer[];
  /** Locally registered tools: `restartable: false` marks respond-only (defineInterrupt) tools. */
  localTools?: ReadonlyMap<string, { restartable?: boolean }>;
}): ResumeValidation {
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
    if (request.state === 'interrupted' && matching.length === 0) {
      errors.push({
        code: 'INVALID_ARGUMENT',
        request: label(request),
        message: `Unresolved tool request '${label(request)}' was not handled by the 'resume' argument. You must supply replies or restarts for all interrupted tool requests.`,
      });
    }
    if (matching.length > 1) errors.push({ code: 'INVALID_ARGUMENT', request: label(request), message: `${label(request)} is answered ${matching.length} times; answer each interrupted request exactly once.` });
    if (request.state === 'pending' && matching.length > 0) {
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
      warnings.push({ code: 'WARNING', request: label(answer), message: 'genkit 1.42 bug 2: replaceInput runs the tool with the new input, but the history the model sees keeps the original input.' });
    }
    if (options.localTools?.get(answer.name)?.restartable === false) {
      warnings.push({
        code: 'WARNING',
        request: label(answer),
        message: `${answer.name} is respond-only (defineInterrupt): restarting it interrupts again, and genkit 1.42 then crashes with a TypeError (bug 1). Answer it with respond.`,
      });
    }
  }
  const refless = new Map<string, number>();
  for (const request of context.requests) if (request.state === 'interrupted' && !request.ref) refless.set(request.name, (refless.get(request.name) ?? 0) + 1);
  for (const [name, count] of refless) {
    if (count > 1) warnings.push({ code: 'WARNING', message: `genkit 1.42 bug 4: ${count} interrupted calls of ${name} have no ref; each will get the first answer.` });
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
