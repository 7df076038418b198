/**
 * How a paused toy call is answered, as Loopscope knows it before anything runs: the toy loop
 * pauses on `approve`, and takes only a respond whose output is `true` or `false` for each call
 * waiting — the same answers the loop itself takes or refuses when it runs them
 * (lib/runtimes/toy/run/play-toy-loop.ts; lib/runtimes/toy/toy-acting.test.ts sends both through it).
 */
import type { ResumeIssue } from '../../../contract/resume-answers';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { Span } from '../../../spans/span';
import type { SpanIndex } from '../../../loop/span-index';
import type { RecordedToolDefinition, ResumeCheck, ResumeContext, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { codeLiteral } from '../../../spans/code-literal';
import { TOY_DIALECT_ID } from './dialect-id';
import { requestName, TOY, waitingRequests, type ToyMessage } from './toy-words';

/** The context of a paused toy call: the history its loop ended with (its `toy.output`), the tools it offered, the calls waiting. */
function contextOf(root: Span): ResumeContext {
  const recorded = jsonAttributeOrUndefined(root.attributes[TOY.output]);
  const messages = Array.isArray(recorded) ? (recorded as ToyMessage[]) : [];
  const tools = jsonAttributeOrUndefined(root.attributes[TOY.tools]);
  const waiting = new Set(waitingRequests(messages).map((request) => request.ref));
  const last = messages.findLast((message) => message.role === 'model');
  const model = root.attributes[TOY.model];
  return {
    dialect: TOY_DIALECT_ID,
    traceId: root.traceId,
    spanId: root.spanId,
    ...(typeof model === 'string' ? { model } : {}),
    messages: structuredClone(messages),
    tools: Array.isArray(tools) ? (tools as RecordedToolDefinition[]) : [],
    requests: (last?.role === 'model' ? (last.requests ?? []) : []).map((request) => ({
      name: request.name,
      ref: request.ref,
      input: request.input,
      state: waiting.has(request.ref) ? ('interrupted' as const) : ('done' as const),
      ...(waiting.has(request.ref) ? { pausedAs: 'waiting for approval' } : {}),
    })),
  };
}

/** Checks respond answers by the toy loop's rules: one `true` / `false` per call waiting, nothing else. */
function validate(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const waiting = context.requests.filter((request) => request.state === 'interrupted');
  if (waiting.length === 0) errors.push({ code: 'FAILED_PRECONDITION', message: 'This toy call waits for nothing: no call of its last model answer is waiting.' });
  for (const [kind, answers] of [
    ['restart', check.restart ?? []],
    ['approve', check.approve ?? []],
    ['deny', check.deny ?? []],
    ['value', check.values ?? []],
  ] as const) {
    for (const answer of answers) errors.push({ code: 'INVALID_ARGUMENT', request: requestName(answer), message: `The toy loop takes no ${kind} (${requestName(answer)}): answer with respond, true or false.` });
  }
  const respond = check.respond ?? [];
  for (const answer of respond) {
    const request = waiting.find((candidate) => candidate.name === answer.name && (answer.ref === undefined || candidate.ref === answer.ref));
    if (!request) errors.push({ code: 'NOT_FOUND', request: requestName(answer), message: `${requestName(answer)} is not waiting for an answer.` });
    else if (typeof answer.output !== 'boolean') errors.push({ code: 'INVALID_ARGUMENT', request: requestName(request), message: `${requestName(request)} takes true or false, not ${JSON.stringify(answer.output) ?? 'nothing'}.` });
  }
  for (const request of waiting) {
    if (!respond.some((answer) => answer.name === request.name && (answer.ref === undefined || answer.ref === request.ref))) {
      errors.push({ code: 'FAILED_PRECONDITION', request: requestName(request), message: `${requestName(request)} is not answered: the toy loop needs an answer for every call waiting.` });
    }
  }
  return { errors, warnings, payload: { messages: structuredClone(context.messages), resume: { respond: structuredClone(respond), restart: [] } } };
}

export const toyResumeRules: ResumeRules = {
  answerKinds: [{ kind: 'respond', label: 'Respond (true approves, false refuses)', fields: ['output'] }],
  contextOf: (root: Span, _index: SpanIndex) => contextOf(root),
  validate,
  snippet: (context, payload) => `toyLoop.answer(${codeLiteral({ messages: payload.messages, respond: payload.resume?.respond ?? [] })});`,
};
