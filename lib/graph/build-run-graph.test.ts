import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { buildRunGraph } from './build-run-graph';
import type { GraphSummary } from './run-graph';

/** Example traces shipped in traces/, recorded by the real runner (scripts/fixtures/example-traces.ts). */
const example = (name: string) => loadTraceFile(path.join(process.cwd(), 'traces', `${name}.json`));

function summary(overrides: Partial<GraphSummary>): GraphSummary {
  return {
    traces: 1,
    generates: 1,
    modelCalls: 0,
    toolCalls: 0,
    interrupts: 0,
    responds: 0,
    restarts: 0,
    pendingReused: 0,
    errors: 0,
    finishReason: 'stop',
    ...overrides,
  };
}

/** A deterministic shuffle, so "spans in any order" is tested without flakiness. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const result = [...items];
  let state = seed;
  for (let index = result.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
}

describe('buildRunGraph on the shipped example traces', () => {
  it('plain-tool-round: one generate, two turns, two tool calls fanned out and joined', async () => {
    const graph = buildRunGraph(await example('plain-tool-round'));
    expect(graph.summary).toEqual(summary({ modelCalls: 2, toolCalls: 2 }));
    const [generate] = graph.generates;
    expect(generate.turns).toHaveLength(2);
    expect(generate.turns[0].toolCalls.map((call) => `${call.name}#${call.ref}:${call.status}`)).toEqual(['getWeather#weather-1:ok', 'convertTemperature#convert-1:ok']);
    expect(generate.text).toContain('Lisbon');
    // Fan out from the first model call, join at the second.
    const firstModel = generate.turns[0].model!.id;
    const secondModel = generate.turns[1].model!.id;
    const toolIds = generate.turns[0].toolCalls.map((call) => call.id);
    for (const id of toolIds) {
      expect(graph.edges).toContainEqual(expect.objectContaining({ source: firstModel, target: id, kind: 'flow' }));
      expect(graph.edges).toContainEqual(expect.objectContaining({ source: id, target: secondModel, kind: 'flow' }));
    }
    expect(graph.nodes.filter((node) => node.kind === 'final-answer')).toHaveLength(1);
  });

  it('restart-after-approval: the interrupt is a pause, linked across traces to the restart that answered it', async () => {
    const graph = buildRunGraph(await example('restart-after-approval'));
    expect(graph.summary).toEqual(summary({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 2, interrupts: 1, restarts: 1 }));
    const [original, resume] = graph.generates;
    expect(original.traceId).not.toBe(resume.traceId);
    expect(original.status).toBe('interrupted');
    const interrupted = original.turns[0].toolCalls[0];
    expect(interrupted).toMatchObject({ name: 'transferMoney', ref: 'transfer-1', status: 'interrupted' });
    expect(interrupted.interrupt).toEqual({ metadata: { reason: 'approval-required', limitUsd: 100, amountUsd: 500 }, evidence: 'attribute' });
    expect(resume.resume?.answersGenerateId).toBe(original.id);
    const [restart] = resume.resume!.resolutions;
    expect(restart).toMatchObject({ kind: 'restart', resumed: { approved: true, approvedBy: 'alice' }, answersToolCallId: interrupted.id });
    expect(interrupted.resolvedBy).toEqual([{ generateId: resume.id, kind: 'restart', nodeId: restart.id }]);
    // The restarted run of the tool is its own node, after the restart part.
    const ran = resume.resumeToolCalls[0];
    expect(ran).toMatchObject({ name: 'transferMoney', ref: 'transfer-1', restarted: true, status: 'ok' });
    expect(restart.restartedToolCallId).toBe(ran.id);
    // A dashed edge from the interrupt to its answer; the interrupt node is paused, never failed.
    expect(graph.edges).toContainEqual({ id: `${interrupted.id}=>${restart.id}`, source: interrupted.id, target: restart.id, kind: 'answer' });
    const node = graph.nodes.find((candidate) => candidate.id === interrupted.id)!;
    expect(node).toMatchObject({ kind: 'tool-interrupt', tone: 'interrupted', status: 'paused — answered by restart' });
  });

  it('respond-to-question: the hand-written answer has no span and runs no tool', async () => {
    const graph = buildRunGraph(await example('respond-to-question'));
    expect(graph.summary).toEqual(summary({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 1, interrupts: 1, responds: 1 }));
    const resolution = graph.generates[1].resume!.resolutions[0];
    expect(resolution).toMatchObject({ kind: 'respond', output: { answer: 'Window' } });
    expect(graph.generates[1].resumeToolCalls).toEqual([]);
    expect(graph.nodes.find((node) => node.id === resolution.id)?.kind).toBe('resume-respond');
  });

  it('parallel-pending-output: the parked call is reused, not re-run, although genkit stripped its marker (bug 3)', async () => {
    const spans = await example('parallel-pending-output');
    // The recorded resume history already lost pendingOutput (genkit 1.42 mutates messages in place).
    const resumeRoot = spans.find((span) => span.parentSpanId === undefined && String(span.attributes['genkit:input']).includes('"resume"'))!;
    expect(String(resumeRoot.attributes['genkit:input'])).not.toContain('pendingOutput');
    const graph = buildRunGraph(spans);
    expect(graph.summary).toEqual(summary({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, restarts: 1, pendingReused: 1 }));
    const [original, resume] = graph.generates;
    const lookup = original.turns[0].toolCalls.find((call) => call.name === 'lookupOrder')!;
    expect(lookup).toMatchObject({ status: 'ok', parked: true });
    const pending = resume.resume!.resolutions.find((resolution) => resolution.kind === 'pending')!;
    expect(pending).toMatchObject({ request: { name: 'lookupOrder', ref: 'order-1' }, output: { customer: 'Ada Lovelace' }, answersToolCallId: lookup.id });
    expect(resume.resumeToolCalls.map((call) => call.name)).toEqual(['transferMoney']);
  });

  it('tool-throws: the failure is data, shown where it happened', async () => {
    const graph = buildRunGraph(await example('tool-throws'));
    expect(graph.summary).toEqual(summary({ modelCalls: 1, toolCalls: 1, errors: 1, finishReason: 'error' }));
    const call = graph.generates[0].turns[0].toolCalls[0];
    expect(call).toMatchObject({ status: 'error', errorMessage: 'Inventory service returned 503 for SKU-1234' });
    const failure = graph.nodes.find((node) => node.kind === 'failure')!;
    expect(failure.detail).toContain('Inventory service returned 503');
    expect(graph.edges).toContainEqual(expect.objectContaining({ source: call.id, target: failure.id }));
  });

  it('unknown-tool: a request with no span, and genkit NOT_FOUND as the failure', async () => {
    const graph = buildRunGraph(await example('unknown-tool'));
    expect(graph.summary).toEqual(summary({ modelCalls: 1, errors: 1, finishReason: 'error' }));
    const [call] = graph.generates[0].turns[0].toolCalls;
    expect(call).toMatchObject({ name: 'cancelSubscription', ref: 'cancel-1', status: 'not-run' });
    expect(call.spanId).toBeUndefined();
    expect(graph.generates[0].errorStatus).toBe('NOT_FOUND');
  });

  it('multi-round-research: five turns, each nested in the previous, one top-level generate', async () => {
    const graph = buildRunGraph(await example('multi-round-research'));
    expect(graph.summary).toEqual(summary({ modelCalls: 5, toolCalls: 4 }));
    expect(graph.generates[0].turns.map((turn) => turn.toolCalls.map((call) => call.name).join())).toEqual(['searchDocs', 'readPage', 'searchDocs', 'readPage', '']);
  });
});

describe('buildRunGraph on real data that is out of shape', () => {
  it('gives the same graph whatever order the spans arrive in', async () => {
    const spans = await example('parallel-pending-output');
    const ordered = buildRunGraph(spans);
    const mixed = buildRunGraph(shuffled(spans));
    expect(mixed.summary).toEqual(ordered.summary);
    expect(mixed.nodes.map((node) => node.id).sort()).toEqual(ordered.nodes.map((node) => node.id).sort());
    expect(mixed.edges.map((edge) => edge.id).sort()).toEqual(ordered.edges.map((edge) => edge.id).sort());
  });

  it('keeps several unrelated runs in one set apart', async () => {
    const spans = [...(await example('plain-tool-round')), ...(await example('restart-after-approval')), ...(await example('tool-throws'))];
    const graph = buildRunGraph(spans);
    expect(graph.summary).toMatchObject({ traces: 4, generates: 4, interrupts: 1, restarts: 1, errors: 1 });
    // Only the real resume is linked.
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });

  it('shows a generate whose root span is still open as running', async () => {
    const spans = (await example('plain-tool-round')).map((span) => (span.parentSpanId === undefined ? { ...span, endTimeUnixNano: undefined } : span));
    const graph = buildRunGraph(spans);
    expect(graph.generates[0].status).toBe('running');
    expect(graph.summary.finishReason).toBeNull();
    expect(graph.nodes.find((node) => node.kind === 'generate')?.tone).toBe('running');
  });

  it('survives a missing parent: the orphaned later turn is not taken for a new generate', async () => {
    const spans = await example('multi-round-research');
    // Drop the generate span of turn 3 (it has a generate parent and generate children).
    const turnThree = spans.filter((span) => span.attributes['genkit:type'] === 'util' && span.parentSpanId !== undefined)[1];
    const graph = buildRunGraph(spans.filter((span) => span !== turnThree));
    expect(graph.summary.generates).toBe(1);
    expect(graph.generates[0].turns.length).toBeLessThan(5);
  });

  it('links a resume even when only the resume trace and the original are loaded out of order', async () => {
    const spans = await example('respond-to-question');
    const graph = buildRunGraph([...spans].reverse());
    expect(graph.generates[1].resume?.answersGenerateId).toBe(graph.generates[0].id);
  });

  it('shows a resume alone (its interrupted generate not loaded) without inventing a link', async () => {
    const spans = await example('restart-after-approval');
    const traces = [...new Set(spans.map((span) => span.traceId))];
    const resumeOnly = spans.filter((span: Span) => span.traceId === traces[1]);
    const graph = buildRunGraph(resumeOnly.length > 0 && resumeOnly.some((span) => String(span.attributes['genkit:input']).includes('"resume"')) ? resumeOnly : spans.filter((span) => span.traceId === traces[0]));
    const resume = graph.generates.find((generate) => generate.resume);
    expect(resume?.resume?.answersGenerateId).toBeUndefined();
    expect(resume?.resume?.resolutions[0]).toMatchObject({ kind: 'restart' });
    expect(graph.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(0);
  });

  it('still draws tool calls whose model span never arrived', async () => {
    const spans = (await example('restart-after-approval')).filter((span) => span.attributes['genkit:metadata:subtype'] !== 'model');
    const graph = buildRunGraph(spans);
    const interrupt = graph.nodes.find((node) => node.kind === 'tool-interrupt');
    expect(interrupt?.tone).toBe('interrupted');
    expect(graph.edges.some((edge) => edge.target === interrupt?.id)).toBe(true);
  });

  it('builds a fresh graph per call: nothing from one trace leaks into the next', async () => {
    const first = buildRunGraph(await example('restart-after-approval'));
    const second = buildRunGraph(await example('plain-tool-round'));
    expect(second.nodes.some((node) => first.nodes.some((other) => other.id === node.id))).toBe(false);
    expect(buildRunGraph([]).summary).toEqual({ ...summary({ traces: 0, generates: 0 }), finishReason: null });
  });
});
