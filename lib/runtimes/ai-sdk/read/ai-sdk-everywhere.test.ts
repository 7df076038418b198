import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../../errors';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { renderGraphText } from '../../../graph/render-graph-text';
import { linkTraces, summarizeCapturedTrace, traceGraphFacts } from '../../../graph/trace-sessions';
import { readReplayable } from '../../read-recording';
import { readRecording } from '../../genkit-js/replay/read-genkit-recording';
import { spanView } from '../../../server/traces/span-view';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';

/** AI SDK traces through every part of lib/ that reads traces: lists, sessions, detail views, resume and replay (refused in words), mixed with genkit. */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');
const load = (name: string) => loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
const ALL = ['ai-sdk-plain-tool-round', 'ai-sdk-approval-approved', 'ai-sdk-approval-approved.legacy', 'ai-sdk-approval-denied', 'ai-sdk-approval-policy', 'ai-sdk-signed-approval-forged', 'ai-sdk-handed-back-tool', 'ai-sdk-dynamic-tool', 'ai-sdk-provider-executed-tool', 'ai-sdk-unknown-tool', 'ai-sdk-invalid-tool-input', 'ai-sdk-repair-tool-call', 'ai-sdk-tool-throws', 'ai-sdk-step-limit', 'ai-sdk-approvals-after-tool-rounds'];

const byTrace = (spans: Span[]) => {
  const traces = new Map<string, Span[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return traces;
};

function expectRefused(run: () => unknown, words: RegExp) {
  try {
    run();
  } catch (error) {
    expect(LoopscopeError.isInstance(error)).toBe(true);
    expect((error as LoopscopeError).code).toBe('FAILED_PRECONDITION');
    expect((error as Error).message).toMatch(words);
    return;
  }
  throw new Error('expected a refusal');
}

describe('AI SDK traces in lists and sessions', () => {
  it('a paused call is listed paused, then answered by the trace that answers it; both are one session', async () => {
    const traces = byTrace(await load('ai-sdk-approval-approved'));
    const summaries = [...traces].map(([traceId, spans]) => summarizeCapturedTrace(traceId, spans)).sort((a, b) => a.startTime - b.startTime);
    const [paused, answer] = summaries;
    expect(paused).toMatchObject({ status: 'interrupted', name: 'invoke_agent scripted/ai-sdk-approval-approved', models: ['scripted/ai-sdk-approval-approved'] });
    expect(paused.linkKeys?.interrupted).toMatchObject([{ requests: 'tool-call-id:transfer-1' }]);
    expect(answer.linkKeys?.resumes).toMatchObject([{ requests: 'tool-call-id:transfer-1' }]);
    const links = linkTraces(summaries);
    expect(links.statusOf(paused)).toEqual({ status: 'answered', answeredBy: [answer.traceId] });
    expect(links.sessionOf(answer.traceId)).toEqual([paused.traceId, answer.traceId]);
    expect(links.matchesOf([answer.traceId])).toMatchObject([{ interruptedId: paused.linkKeys!.interrupted[0].generateId, evidence: 'history' }]);
  });

  it('a step limit is listed ok, a tool that throws counts as a failed tool of an ok trace', async () => {
    const [stepLimit] = [...byTrace(await load('ai-sdk-step-limit'))].map(([traceId, spans]) => summarizeCapturedTrace(traceId, spans));
    expect(stepLimit).toMatchObject({ status: 'ok', linkKeys: { interrupted: [], resumes: [] } });
    const spans = await load('ai-sdk-tool-throws');
    expect(traceGraphFacts(spans).failedTools).toBe(1);
  });
});

describe('AI SDK spans in the detail panel', () => {
  it('shows messages for calls and model calls, arguments and result for tools, prompt and response for legacy spans', async () => {
    const spans = await load('ai-sdk-plain-tool-round');
    const chat = spanView(spans.find((span) => span.name.startsWith('chat '))!);
    expect(chat).toMatchObject({ role: 'model', input: { parsed: true }, output: { parsed: true } });
    expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
    const tool = spanView(spans.find((span) => span.name === 'execute_tool getWeather')!);
    expect(tool).toMatchObject({ role: 'tool', label: 'getWeather', input: { parsed: true, value: expect.any(Object) }, output: { parsed: true, value: expect.any(Object) } });
    const legacy = await load('ai-sdk-approval-approved.legacy');
    const generate = spanView(legacy.find((span) => span.name === 'ai.generateText')!);
    expect(generate).toMatchObject({ role: 'generate', input: { parsed: true, value: { messages: expect.any(Array) } } });
    const step = spanView(spans.find((span) => span.name === 'step 1')!);
    expect(step).toMatchObject({ role: 'other', input: undefined, output: undefined });
  });
});

describe('replaying AI SDK calls reads an AI SDK recording', () => {
  it('replay: every AI SDK trace alone reads as an AI SDK recording; mixed with genkit, the genkit calls replay', async () => {
    const sdk = (await Promise.all(ALL.map(load))).flat();
    for (const spans of byTrace(sdk).values()) expect(readReplayable(spans).runtime).toBe('ai-sdk');
    // The genkit reader says where to go instead, in one sentence.
    expectRefused(() => readRecording([...byTrace(sdk).values()][0]), /^These are Vercel AI SDK calls: read them with readReplayable/);
    const genkit = await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'interrupt-restart.otlp.json'));
    expect(readRecording([...genkit, ...sdk]).steps.length).toBe(readRecording(genkit).steps.length);
  });
});

describe('a trace with genkit and AI SDK spans draws both', () => {
  it('each call read by its own dialect; genkit links as without the AI SDK', async () => {
    const genkit = await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'interrupt-restart.otlp.json'));
    const sdk = await load('ai-sdk-approval-denied');
    const mixed = buildRunGraph([...sdk, ...genkit]);
    const alone = { genkit: buildRunGraph(genkit), sdk: buildRunGraph(sdk) };
    for (const field of ['traces', 'generates', 'modelCalls', 'toolCalls', 'interrupts', 'responds', 'restarts', 'pendingReused', 'errors'] as const) {
      expect(mixed.summary[field]).toBe(alone.genkit.summary[field] + alone.sdk.summary[field]);
    }
    const resumes = (graph: typeof mixed) => graph.generates.filter((generate) => generate.resume).map((generate) => generate.resume!.answersGenerateId);
    expect(resumes(mixed).sort()).toEqual([...resumes(alone.genkit), ...resumes(alone.sdk)].sort());
    expect(mixed.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(2);
    expect(renderGraphText(mixed)).toContain('transferMoney#transfer-1');
  });

  it('one trace holding a genkit generate and an AI SDK call (a genkit flow step calling generateText) draws both', async () => {
    const genkit = await loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'plain-round.otlp.json'));
    const [traceId] = new Set(genkit.map((span) => span.traceId));
    const sdk = (await load('ai-sdk-plain-tool-round')).map((span) => ({ ...span, traceId }));
    const graph = buildRunGraph([...genkit, ...sdk]);
    expect(graph.summary).toStrictEqual({ traces: 1, generates: 2, modelCalls: 4, toolCalls: 4, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' });
    expect(graph.generates.map((generate) => generate.turns.map((turn) => turn.toolCalls.length))).toEqual(expect.arrayContaining([[2, 0]]));
    expect(graph.nodes.filter((node) => node.kind === 'final-answer')).toHaveLength(2);
  });
});
