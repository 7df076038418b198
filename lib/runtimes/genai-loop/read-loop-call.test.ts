import { describe, expect, it } from 'vitest';
import { buildRunGraph, indexSpans } from '../../graph/build-run-graph';
import { linkTraces } from '../../graph/trace-sessions';
import { createAttributes, type Span } from '../../spans/span';
import { genAiLabelOf, genAiLoopKind, genAiMessagesOf, genAiToolOf } from './genai-span-reading';
import { loopDialect } from './loop-dialect';
import type { LoopFlavor } from './loop-flavor';
import { answeredMessage } from './loop-answers';
import { otelGenAiFlavor } from '../otel-genai/read';

/**
 * The shared GenAI-loop reader with a made-up flavor (`toy-framework`), on spans made here: what
 * the base does whatever the framework — tool spans without call ids paired with the model's
 * calls by name and arguments, a pause recorded on a span drawn as paused (never an error, never
 * a tool that ran), a pause only an answer shows (a silent key), messages on span events.
 */
let clock = 1_000_000_000_000_000_000n;
function span(options: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: Record<string, unknown>; status?: 0 | 2; events?: Span['events'] }): Span {
  const attributes = createAttributes();
  for (const [key, value] of Object.entries(options.attributes ?? {})) attributes[key] = (typeof value === 'string' ? value : JSON.stringify(value)) as string;
  clock += 1_000_000n;
  return {
    traceId: options.traceId.padEnd(32, '0'),
    spanId: options.spanId.padEnd(16, '0'),
    ...(options.parentSpanId ? { parentSpanId: options.parentSpanId.padEnd(16, '0') } : {}),
    name: options.name,
    kind: 1,
    startTimeUnixNano: String(clock),
    endTimeUnixNano: String(clock + 500_000n),
    attributes,
    events: options.events ?? [],
    links: [],
    status: { code: options.status ?? 0 },
    resource: Object.assign(createAttributes(), { 'service.name': 'toy-app' }),
    scope: { name: 'toy-framework' },
  };
}

const toyFlavor: LoopFlavor = {
  ...otelGenAiFlavor,
  id: 'toy-framework',
  title: 'Toy framework',
  claimedBy: { scopes: ['toy-framework'] },
  claims: (candidate) => candidate.scope.name === 'toy-framework',
  kindOf: genAiLoopKind,
  labelOf: genAiLabelOf,
  messagesOf: genAiMessagesOf,
  toolOf: genAiToolOf,
  // The toy framework pauses a tool by recording `toy.paused` on its span, and answers with a run on the same `toy.thread`.
  pauseOf: (candidate) => (candidate.attributes['toy.paused'] === 'true' ? { pausedAs: 'held by the toy hook', metadata: { hook: 'toy' }, evidence: 'attribute', pauseId: 'pause-1' } : undefined),
  linkScope: ({ root }) => `toy-thread:${String(root.attributes['toy.thread'])}`,
  silentPauses: false,
};
const toy = loopDialect(toyFlavor);

const user = { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris and Oslo?' }] };
const asks = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }, { type: 'tool_call', id: 'c2', name: 'get_weather', arguments: { city: 'Oslo' } }] };

function pausedRun(): Span[] {
  return [
    span({ traceId: 'a1', spanId: 'root', name: 'invoke_agent toy', attributes: { 'gen_ai.operation.name': 'invoke_agent', 'toy.thread': 't1' } }),
    span({ traceId: 'a1', spanId: 'chat1', parentSpanId: 'root', name: 'chat m', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.input.messages': [user], 'gen_ai.output.messages': [{ ...asks, finish_reason: 'stop' }] } }),
    // No call ids: the Oslo span started first; arguments tell them apart.
    span({ traceId: 'a1', spanId: 'oslo', parentSpanId: 'root', name: 'execute_tool get_weather', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.arguments': { city: 'Oslo' }, 'gen_ai.tool.call.result': 'rain' } }),
    span({ traceId: 'a1', spanId: 'paris', parentSpanId: 'root', name: 'execute_tool get_weather', status: 2, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.arguments': { city: 'Paris' }, 'toy.paused': 'true' } }),
  ];
}

function answeringRun(): Span[] {
  return [
    span({ traceId: 'b2', spanId: 'root', name: 'invoke_agent toy', attributes: { 'gen_ai.operation.name': 'invoke_agent', 'toy.thread': 't1' } }),
    span({ traceId: 'b2', spanId: 'paris', parentSpanId: 'root', name: 'execute_tool get_weather', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.result': 'sun' } }),
    span({
      traceId: 'b2',
      spanId: 'chat2',
      parentSpanId: 'root',
      name: 'chat m',
      // Content captured on the span's event, not on the span.
      events: [
        {
          name: 'gen_ai.client.inference.operation.details',
          timeUnixNano: '1',
          attributes: Object.assign(createAttributes(), {
            'gen_ai.input.messages': JSON.stringify([user, asks, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sun' }, { type: 'tool_call_response', id: 'c2', response: 'rain' }] }]),
            'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Sun in Paris, rain in Oslo.' }], finish_reason: 'stop' }]),
          }),
        },
      ],
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' },
    }),
  ];
}

describe('the shared GenAI-loop reader', () => {
  it('pairs tool spans without call ids with the model’s calls by arguments, and draws a recorded pause as paused, never as an error', () => {
    const graph = buildRunGraph(pausedRun(), { dialects: [toy] });
    const [call] = graph.generates;
    expect(call).toMatchObject({ runtime: 'toy-framework', status: 'interrupted', finishReason: 'stop' });
    expect(call.turns[0].toolCalls.map((tool) => [tool.ref, tool.spanId?.slice(0, 5), tool.status, tool.interrupt?.pausedAs])).toEqual([
      ['c1', 'paris', 'interrupted', 'held by the toy hook'],
      ['c2', 'oslo0', 'ok', undefined],
    ]);
    expect(graph.summary).toMatchObject({ interrupts: 1, errors: 0 });
    expect(graph.nodes.find((node) => node.kind === 'tool-interrupt')?.status).toBe('paused: held by the toy hook — waiting for an answer');
  });

  it('links the answering run by the flavor’s scope, its tool run again as restart and its history read from the span event', () => {
    const graph = buildRunGraph([...pausedRun(), ...answeringRun()], { dialects: [toy] });
    const [paused, answer] = graph.generates;
    expect(answer.resume).toMatchObject({ answersGenerateId: paused.id, evidence: 'history' });
    expect(answer.resume!.resolutions.map((resolution) => [resolution.kind, resolution.request.ref, resolution.answersToolCallId === paused.turns[0].toolCalls[0].id])).toEqual([['restart', 'c1', true]]);
    // c2 ran in the paused run: its result in the answer's history is no answer.
    expect(paused.turns[0].toolCalls[1].resolvedBy).toEqual([]);
    expect(answer.text).toBe('Sun in Paris, rain in Oslo.');
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });

  it('a history ending with tool results answers the assistant message before them; one ending with user text answers nothing', () => {
    const results = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sun' }] };
    const messages = (list: object[]) => list as Parameters<typeof answeredMessage>[0];
    expect(answeredMessage(messages([user, asks, results]))).toMatchObject({ position: 1, responses: new Map([['c1', 'sun']]) });
    // ADK's function responses come back as a user message of tool results only.
    expect(answeredMessage(messages([user, asks, { ...results, role: 'user' }]))).toMatchObject({ position: 1 });
    expect(answeredMessage(messages([user, asks, results, user]))).toBeUndefined();
    expect(answeredMessage(messages([user]))).toBeUndefined();
  });

  it('a silent pause (the flavor says a call may have paused unseen) lists no trace as waiting until an answer is tied to it', () => {
    const silent = loopDialect({ ...toyFlavor, pauseOf: undefined, silentPauses: true });
    const ranBoth = pausedRun().map((candidate) => (candidate.spanId.startsWith('paris') ? { ...candidate, status: { code: 0 as const }, attributes: Object.assign(createAttributes(), candidate.attributes, { 'toy.paused': 'false' }) } : candidate));
    const index = indexSpans(ranBoth, [silent]);
    const read = silent.readCall({ index, root: ranBoth[0] });
    expect(read.call.status).toBe('ok');
    expect(read.interrupted).toMatchObject({ requests: 'toy-thread:t1', silent: true });
    const paused = { traceId: 'x', status: 'ok' as const, linkKeys: { interrupted: [read.interrupted!], resumes: [] } };
    expect(linkTraces([paused]).statusOf(paused)).toEqual({ status: 'ok' });
    const answer = { traceId: 'y', status: 'ok' as const, linkKeys: { interrupted: [], resumes: [{ generateId: 'y:1', traceId: 'y', resource: { service: 'toy-app' }, startTime: read.call.startTime + 1, requests: 'toy-thread:t1' }] } };
    expect(linkTraces([paused, answer]).statusOf(paused)).toEqual({ status: 'answered', answeredBy: ['y'] });
  });
  it('a call no tool span ran whose result reached the next model call was answered inside the run, in the flavor’s words (never ran without them)', () => {
    const results = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'answered by a handler' }] };
    const spans = [
      span({ traceId: 'c3', spanId: 'root', name: 'invoke_agent toy', attributes: { 'gen_ai.operation.name': 'invoke_agent' } }),
      span({ traceId: 'c3', spanId: 'chat1', parentSpanId: 'root', name: 'chat m', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': [user], 'gen_ai.output.messages': [{ role: 'assistant', parts: [asks.parts[0]] }] } }),
      span({ traceId: 'c3', spanId: 'chat2', parentSpanId: 'root', name: 'chat m', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': [user, { role: 'assistant', parts: [asks.parts[0]] }, results], 'gen_ai.output.messages': [{ role: 'assistant', parts: [{ type: 'text', content: 'ok' }] }] } }),
    ];
    const answeredInRun = { code: 'answered-in-run', words: 'answered inside the run' };
    const withWords = loopDialect({ ...toyFlavor, words: { ...toyFlavor.words, answeredInRun } });
    const [call] = buildRunGraph(spans, { dialects: [withWords] }).generates[0].turns[0].toolCalls;
    expect(call).toMatchObject({ ref: 'c1', status: 'not-run', output: 'answered by a handler', runtimeState: answeredInRun, loopWentOn: true });
    const [without] = buildRunGraph(spans, { dialects: [toy] }).generates[0].turns[0].toolCalls;
    expect(without).toMatchObject({ ref: 'c1', status: 'not-run' });
    expect(without.runtimeState).toBeUndefined();
  });
});
