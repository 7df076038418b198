/**
 * The toy loop itself — the runtime the toy dialect reads: it sends the history to its model,
 * runs the tools the model asks for, and goes on until the model answers with text, or pauses
 * when the model asks for `approve`. Each call, turn and tool is a real OpenTelemetry span with
 * the toy's attributes (read/toy-words.ts), on whatever tracer provider is registered (the
 * runner's). A call that answers a paused one takes its answers here, by the toy loop's own
 * rules: a respond of `true` or `false` for each call waiting, nothing else.
 */
import { SpanStatusCode, trace, type Span as OtelSpan } from '@opentelemetry/api';
import type { RecordedToolDefinition } from '../../../loop/resume-model';
import { PAUSING_TOOL, requestName, TOY, waitingRequests, type ToyAnswer, type ToyMessage, type ToyModelRequest, type ToyReply, type ToyRequest, type ToyResult } from '../read/toy-words';
import type { ToyToolOutcome } from './toy-tools';

/** How the toy loop refuses a call: a status name (as genkit's) and why. */
export class ToyLoopError extends Error {
  constructor(
    readonly code: 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'FAILED_PRECONDITION' | 'ABORTED' | 'RESOURCE_EXHAUSTED',
    message: string,
  ) {
    super(message);
    this.name = 'ToyLoopError';
  }
}

export interface ToyLoopOptions {
  model: { name: string; answer(request: ToyModelRequest): Promise<ToyReply> };
  /** Runs one tool call (a replay plays its recorded outcome back instead). */
  runTool(request: ToyRequest): Promise<ToyToolOutcome>;
  tools: readonly RecordedToolDefinition[];
  /** The history to go on from: a prompt, or a paused call's history with `answers` for the calls it waits for. */
  messages: readonly ToyMessage[];
  answers?: { respond?: readonly ToyAnswer[]; restart?: readonly unknown[] };
  maxTurns?: number;
  abortSignal?: AbortSignal;
}

export type ToyLoopResult = { status: 'done'; text: string; messages: ToyMessage[] } | { status: 'paused'; waiting: ToyRequest[]; messages: ToyMessage[] };

const tracer = () => trace.getTracer('toy-loop');
const json = (value: unknown) => JSON.stringify(value) ?? 'null';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Ends a span as the toy loop ends a failed step. */
function failed(span: OtelSpan, error: unknown): void {
  span.setAttributes({ [TOY.result]: 'failed', [TOY.error]: messageOf(error) });
  span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
}

/** The history with the answers as the results of the calls waiting — or the toy loop's refusal. */
function answered(messages: readonly ToyMessage[], answers: NonNullable<ToyLoopOptions['answers']>): ToyMessage[] {
  if ((answers.restart ?? []).length > 0) throw new ToyLoopError('INVALID_ARGUMENT', 'The toy loop cannot run a tool again: answer with respond, true or false.');
  const waiting = waitingRequests(messages);
  if (waiting.length === 0) throw new ToyLoopError('FAILED_PRECONDITION', 'Nothing waits for an answer: the last model message has no call left waiting.');
  const results: ToyResult[] = [];
  for (const answer of answers.respond ?? []) {
    const request = waiting.find((candidate) => candidate.name === answer.name && (answer.ref === undefined || candidate.ref === answer.ref));
    if (!request) throw new ToyLoopError('NOT_FOUND', `${requestName(answer)} is not waiting for an answer.`);
    if (typeof answer.output !== 'boolean') throw new ToyLoopError('INVALID_ARGUMENT', `${requestName(request)} takes true or false, not ${JSON.stringify(answer.output) ?? 'nothing'}.`);
    results.push({ name: request.name, ref: request.ref, output: answer.output });
  }
  for (const request of waiting) if (!results.some((result) => result.ref === request.ref)) throw new ToyLoopError('FAILED_PRECONDITION', `${requestName(request)} is not answered.`);
  const history = structuredClone([...messages]);
  const last = history.at(-1);
  if (last?.role === 'tool') last.results.push(...results);
  else history.push({ role: 'tool', results });
  return history;
}

async function think(options: ToyLoopOptions, request: ToyModelRequest): Promise<ToyReply> {
  return tracer().startActiveSpan('think', { attributes: { [TOY.kind]: 'think', [TOY.model]: options.model.name, [TOY.input]: json(request) } }, async (span) => {
    try {
      const reply = await options.model.answer(request);
      span.setAttributes({ [TOY.output]: json(reply), [TOY.result]: 'ok', ...(reply.text !== undefined ? { [TOY.text]: reply.text } : {}) });
      return reply;
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Runs one requested call in its span: its result, or undefined for a call that pauses the loop. */
async function callTool(options: ToyLoopOptions, request: ToyRequest): Promise<ToyResult | undefined> {
  const attributes = { [TOY.kind]: 'tool', [TOY.tool]: request.name, [TOY.ref]: request.ref, [TOY.input]: json(request.input ?? {}) };
  return tracer().startActiveSpan('tool', { attributes }, async (span) => {
    try {
      if (request.name === PAUSING_TOOL) {
        span.setAttribute(TOY.result, 'paused');
        return undefined;
      }
      const outcome = await options.runTool(request);
      if (outcome.kind === 'error') {
        failed(span, new Error(outcome.message));
        return { name: request.name, ref: request.ref, error: outcome.message };
      }
      span.setAttributes({ [TOY.output]: json(outcome.output), [TOY.result]: 'ok' });
      return { name: request.name, ref: request.ref, output: outcome.output };
    } catch (error) {
      // Not a tool's failure: whoever runs the tools gave up on the loop (a strict replay that stopped).
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Plays one call of the toy loop. Resolves when the model answers with text or the loop pauses.
 * @throws ToyLoopError when the answers break the toy loop's rules, the turns run out or the run
 *   is aborted; whatever the model or `runTool` throws. The call's span records the failure.
 */
export function playToyLoop(options: ToyLoopOptions): Promise<ToyLoopResult> {
  const attributes = {
    [TOY.kind]: 'loop',
    [TOY.model]: options.model.name,
    [TOY.tools]: json(options.tools),
    [TOY.input]: json(options.messages),
    ...(options.answers ? { [TOY.answers]: json(options.answers.respond ?? []) } : {}),
  };
  return tracer().startActiveSpan('loop', { root: true, attributes }, async (root): Promise<ToyLoopResult> => {
    try {
      let history = options.answers ? answered(options.messages, options.answers) : structuredClone([...options.messages]);
      const maxTurns = options.maxTurns ?? 8;
      for (let turn = 0; ; turn += 1) {
        if (turn === maxTurns) throw new ToyLoopError('RESOURCE_EXHAUSTED', `The toy loop ran ${maxTurns} turns without an answer.`);
        if (options.abortSignal?.aborted) throw new ToyLoopError('ABORTED', 'The toy loop was stopped.');
        const reply = await think(options, { messages: history, tools: options.tools.map((tool) => tool.name) });
        history = [...history, { role: 'model', ...reply }];
        const requests = reply.requests ?? [];
        if (requests.length === 0) {
          root.setAttributes({ [TOY.output]: json(history), [TOY.result]: 'ok' });
          return { status: 'done', text: reply.text ?? '', messages: history };
        }
        const results: ToyResult[] = [];
        const waiting: ToyRequest[] = [];
        for (const request of requests) {
          const result = await callTool(options, request);
          if (result) results.push(result);
          else waiting.push(request);
        }
        if (results.length > 0) history = [...history, { role: 'tool', results }];
        if (waiting.length > 0) {
          root.setAttributes({ [TOY.output]: json(history), [TOY.result]: 'ok' });
          return { status: 'paused', waiting, messages: history };
        }
      }
    } catch (error) {
      failed(root, error);
      throw error;
    } finally {
      root.end();
    }
  });
}
