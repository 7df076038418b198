import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PauseInfo } from '../runner/step-protocol';
import { loadTraceFile } from '../store/load-trace-file';
import { compareNanos, type Span } from '../spans/span';
import { buildRunGraph } from './build-run-graph';
import { ghostNodes } from './ghost-nodes';
import type { RunGraph } from './run-graph';

const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

const role = (span: Span) => span.attributes['genkit:metadata:subtype'] ?? span.attributes['genkit:type'];

const isRoot = (span: Span) => span.parentSpanId === undefined;
const isResumeRoot = (span: Span) => isRoot(span) && String(span.attributes['genkit:input']).includes('"resume"');

/**
 * A real trace as it looks while the run is paused: only the spans that had ended before the
 * pause (`keep`), and the generates still running (`open`, by default the root generates)
 * open, as their start notice records them: no end, no output yet.
 */
function pausedAt(spans: readonly Span[], { keep, open = isRoot }: { keep: (span: Span) => boolean; open?: (span: Span) => boolean }): Span[] {
  return spans.filter((span) => keep(span) || open(span)).map((span) => {
    if (!open(span)) return span;
    const attributes = Object.assign(Object.create(null) as Span['attributes'], span.attributes);
    delete attributes['genkit:output'];
    return { ...span, endTimeUnixNano: undefined, attributes };
  });
}

/** plain-round (one model call asks for getWeather#w1 and getTime#t1 in parallel, then text) paused after turn 1's model call. */
async function plainRoundBeforeTools(): Promise<RunGraph> {
  const spans = await fixture('plain-round');
  const root = spans.find(isRoot)!;
  return buildRunGraph(pausedAt(spans, { keep: (span) => span.parentSpanId === root.spanId && role(span) === 'model' }));
}

/** plain-round paused after both parallel tools ran, before the second model call. */
async function plainRoundBeforeSecondModelCall(): Promise<RunGraph> {
  const spans = await fixture('plain-round');
  const root = spans.find(isRoot)!;
  return buildRunGraph(pausedAt(spans, { keep: (span) => span.parentSpanId === root.spanId && role(span) !== 'util' }));
}

const modelPause = (pauseId: string, modelTurn?: number): PauseInfo => ({ pauseId, kind: 'model', modelTurn, pausedAt: 0 });
const toolPause = (pauseId: string, name: string, ref?: string): PauseInfo => ({ pauseId, kind: 'tool', tool: { name, ref }, pausedAt: 0 });

describe('ghostNodes', () => {
  it('draws nothing without pauses, or without a generate to pause in', async () => {
    const graph = await plainRoundBeforeTools();
    expect(ghostNodes(graph, [])).toEqual({ nodes: [], edges: [], hidden: new Set() });
    // bug5-tool-alone: a tool run on its own, no generate.
    const alone = buildRunGraph(await fixture('bug5-tool-alone'));
    expect(ghostNodes(alone, [modelPause('p1', 1)])).toEqual({ nodes: [], edges: [], hidden: new Set() });
  });

  it('a pause before a tool takes the place of the request drawn as not run, after the model call that asked for it', async () => {
    const graph = await plainRoundBeforeTools();
    const [generate] = graph.generates;
    expect(generate.status).toBe('running');
    const [weather] = generate.turns[0].toolCalls;
    expect(weather).toMatchObject({ name: 'getWeather', ref: 'w1', status: 'not-run' });
    const model = generate.turns[0].model!.id;

    const ghosts = ghostNodes(graph, [toolPause('p7', 'getWeather', 'w1')]);
    expect(ghosts.nodes).toEqual([
      {
        id: 'ghost:p7',
        kind: 'ghost',
        generateId: generate.id,
        traceId: generate.traceId,
        label: 'paused before getWeather#w1',
        status: 'waiting for Step, Continue or a decision',
        tone: 'interrupted',
      },
    ]);
    expect(ghosts.edges).toEqual([{ id: `${model}->ghost:p7`, source: model, target: 'ghost:p7', kind: 'flow' }]);
    expect([...ghosts.hidden]).toEqual([weather.id]);
  });

  it('parallel tool calls paused at once: one ghost each, each hiding its own request', async () => {
    const graph = await plainRoundBeforeTools();
    const [generate] = graph.generates;
    const [weather, time] = generate.turns[0].toolCalls;
    const model = generate.turns[0].model!.id;
    const ghosts = ghostNodes(graph, [toolPause('a', 'getWeather', 'w1'), toolPause('b', 'getTime', 't1')]);
    expect(ghosts.nodes.map((node) => [node.id, node.label])).toEqual([
      ['ghost:a', 'paused before getWeather#w1'],
      ['ghost:b', 'paused before getTime#t1'],
    ]);
    expect(ghosts.edges.map((edge) => [edge.source, edge.target])).toEqual([
      [model, 'ghost:a'],
      [model, 'ghost:b'],
    ]);
    expect([...ghosts.hidden].sort()).toEqual([weather.id, time.id].sort());
  });

  it('hides only a request with the same name and ref', async () => {
    const graph = await plainRoundBeforeTools();
    for (const pause of [toolPause('x', 'getWeather', 'w2'), toolPause('x', 'getWeather'), toolPause('x', 'getTemperature', 'w1')]) {
      const ghosts = ghostNodes(graph, [pause]);
      expect(ghosts.hidden.size, JSON.stringify(pause.tool)).toBe(0);
      // The ghost is still drawn after the model call.
      expect(ghosts.edges.map((edge) => edge.source)).toEqual([graph.generates[0].turns[0].model!.id]);
    }
    expect(ghostNodes(graph, [toolPause('x', 'getWeather')]).nodes[0].label).toBe('paused before getWeather');
  });

  it('a ref-less pause hides the ref-less request still waiting, not the one that already ran', async () => {
    // bug4-no-ref: askApproval asked for twice without a ref; trace 1 paused after the first one ran (and interrupted).
    const spans = await fixture('bug4-no-ref');
    const first = spans.find((span) => isRoot(span) && !isResumeRoot(span))!;
    const ranFirst = spans.filter((span) => span.parentSpanId === first.spanId && role(span) === 'tool').sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano))[0];
    const graph = buildRunGraph(pausedAt(spans, { keep: (span) => span === ranFirst || (span.parentSpanId === first.spanId && role(span) === 'model'), open: (span) => span === first }));
    const calls = graph.generates[0].turns[0].toolCalls;
    expect(calls.map((call) => [call.name, call.ref, call.status])).toEqual([
      ['askApproval', undefined, 'interrupted'],
      ['askApproval', undefined, 'not-run'],
    ]);
    expect([...ghostNodes(graph, [toolPause('r', 'askApproval')]).hidden]).toEqual([calls[1].id]);
  });

  it('a pause before a model call comes after the last finished steps: both parallel tool calls lead into it', async () => {
    const graph = await plainRoundBeforeSecondModelCall();
    const [generate] = graph.generates;
    const tools = generate.turns[0].toolCalls;
    expect(tools.map((call) => call.status)).toEqual(['ok', 'ok']);
    const ghosts = ghostNodes(graph, [modelPause('m2', 2)]);
    expect(ghosts.nodes.map((node) => [node.id, node.label, node.tone])).toEqual([['ghost:m2', 'paused before model call 2', 'interrupted']]);
    expect(ghosts.edges.map((edge) => edge.source).sort()).toEqual(tools.map((call) => call.id).sort());
    expect(ghosts.edges.every((edge) => edge.target === 'ghost:m2' && edge.kind === 'flow')).toBe(true);
    expect(ghosts.hidden.size).toBe(0);
  });

  it('a pause before the first model call hangs off the generate itself', async () => {
    const spans = await fixture('plain-round');
    const graph = buildRunGraph(pausedAt(spans, { keep: () => false }));
    const ghosts = ghostNodes(graph, [modelPause('m1', 1)]);
    expect(ghosts.nodes[0].label).toBe('paused before model call 1');
    expect(ghosts.edges).toEqual([{ id: `${graph.generates[0].id}->ghost:m1`, source: graph.generates[0].id, target: 'ghost:m1', kind: 'flow' }]);
    // Without a turn number the label still reads.
    expect(ghostNodes(graph, [modelPause('m')]).nodes[0].label).toBe('paused before model call');
  });

  it('an interrupted branch ends there: the next model call is not drawn after it', async () => {
    // pending-output trace 1, still running: lookupAccount finished, transferMoney interrupted.
    const spans = await fixture('pending-output');
    const first = spans.find((span) => isRoot(span) && !isResumeRoot(span))!;
    const graph = buildRunGraph(pausedAt(spans, { keep: (span) => span.traceId === first.traceId, open: (span) => span === first }));
    const calls = graph.generates[0].turns[0].toolCalls;
    expect(calls.map((call) => [call.name, call.status])).toEqual([
      ['lookupAccount', 'ok'],
      ['transferMoney', 'interrupted'],
    ]);
    expect(ghostNodes(graph, [modelPause('m', 2)]).edges.map((edge) => edge.source)).toEqual([calls[0].id]);
  });

  it('ghosts belong to the latest generate: a resume paused before its model call follows its restarted tool', async () => {
    // interrupt-restart: the resume restarted transferMoney#tx1 and is paused before calling the model
    // (its turn's generate and model spans have not ended yet).
    const spans = await fixture('interrupt-restart');
    const resumeRoot = spans.find(isResumeRoot)!;
    const graph = buildRunGraph(pausedAt(spans, { keep: (span) => span.traceId !== resumeRoot.traceId || role(span) === 'tool', open: (span) => span === resumeRoot }));
    const [original, resume] = graph.generates;
    expect(resume.status).toBe('running');
    expect(original.status).toBe('interrupted');
    const restarted = resume.resumeToolCalls[0];
    expect(restarted).toMatchObject({ name: 'transferMoney', restarted: true, status: 'ok' });
    const ghosts = ghostNodes(graph, [modelPause('m', 2)]);
    expect(ghosts.nodes[0]).toMatchObject({ generateId: resume.id, traceId: resume.traceId });
    expect(ghosts.edges.map((edge) => edge.source)).toEqual([restarted.id]);
  });

  describe('AI SDK: the paused step’s span is already open (chat before the wrapped model, execute_tool before execute)', () => {
    const aiSdkFixture = () => loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', 'ai-sdk-plain-tool-round.otlp.json'));
    /** The spans in start order; the chat calls and the step spans by position. */
    async function plainRound() {
      const all = await aiSdkFixture();
      // The first call's trace (the fixture holds one call).
      const spans = all.filter((span) => span.traceId === all[0].traceId);
      const sorted = [...spans].sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
      const named = (prefix: string) => sorted.filter((span) => span.name.startsWith(prefix));
      return { spans, chats: named('chat'), steps: named('step'), tools: named('execute_tool'), root: named('invoke_agent')[0] };
    }
    const openUp = (spans: Span[], open: Set<Span>, drop: Set<Span>) =>
      spans.filter((span) => !drop.has(span)).map((span) => (open.has(span) ? { ...span, endTimeUnixNano: undefined, attributes: Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !key.startsWith('gen_ai.output') && key !== 'gen_ai.tool.call.result' && key !== 'gen_ai.response.finish_reasons')) } : span));

    it('paused before both tools: each ghost takes the place of its running execute_tool, after the chat that asked for it', async () => {
      const { spans, chats, steps, tools, root } = await plainRound();
      const graph = buildRunGraph(openUp(spans, new Set([root, steps[0], ...tools]), new Set([steps[1], chats[1]])));
      const [generate] = graph.generates;
      expect(generate.status).toBe('running');
      const calls = generate.turns[0].toolCalls;
      expect(calls.map((call) => call.status)).toEqual(['running', 'running']);
      const ghosts = ghostNodes(graph, [toolPause('a', 'getWeather', 'weather-1'), toolPause('b', 'convertTemperature', 'convert-1')]);
      expect(ghosts.nodes.map((node) => node.label)).toEqual(['paused before getWeather#weather-1', 'paused before convertTemperature#convert-1']);
      expect(ghosts.edges.map((edge) => edge.source)).toEqual([generate.turns[0].model!.id, generate.turns[0].model!.id]);
      expect([...ghosts.hidden].sort()).toEqual(calls.map((call) => call.id).sort());
    });

    it('paused before model call 2: the ghost takes the place of the running chat, after both tools', async () => {
      const { spans, chats, steps, root } = await plainRound();
      const graph = buildRunGraph(openUp(spans, new Set([root, steps[1], chats[1]]), new Set()));
      const [generate] = graph.generates;
      expect(generate.turns.map((turn) => turn.model?.status)).toEqual(['ok', 'running']);
      const ghosts = ghostNodes(graph, [modelPause('m2', 2)]);
      expect([...ghosts.hidden]).toEqual([generate.turns[1].model!.id]);
      expect(ghosts.edges.map((edge) => edge.source).sort()).toEqual(generate.turns[0].toolCalls.map((call) => call.id).sort());
    });

    it('paused before model call 1: the ghost hangs off the call, the running chat hidden', async () => {
      const { spans, chats, steps, root } = await plainRound();
      const graph = buildRunGraph(openUp(spans, new Set([root, steps[0], chats[0]]), new Set([steps[1], chats[1], ...spans.filter((span) => span.name.startsWith('execute_tool'))])));
      const [generate] = graph.generates;
      const ghosts = ghostNodes(graph, [modelPause('m1', 1)]);
      expect([...ghosts.hidden]).toEqual([generate.turns[0].model!.id]);
      expect(ghosts.edges.map((edge) => edge.source)).toEqual([generate.id]);
    });
  });
});
