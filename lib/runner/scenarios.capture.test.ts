import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGenkitScenario } from '../runtimes/genkit-js/read/genkit-scenario';
import { buildRunGraph } from '../graph/build-run-graph';
import { classifySpan } from '../runtimes/classify-span';
import { CLOSED_BY_ATTRIBUTE } from '../spans/loopscope-attributes';
import type { Span } from '../spans/span';
import { startCaptureHarness, type CaptureHarness } from '../server/testing/capture-harness';
import type { GenerateResult } from './run-requests';

/**
 * Every shipped scenario, run by the real runner with real genkit, its spans reported over
 * IPC and stored by the supervisor — and the spans that arrive are counted.
 *
 * Span count: N model calls and T tool runs give 2N+T spans (one generate span per turn,
 * one model span per turn, one span per tool run) — plus one for each resume generate,
 * which handles the resume parts in its own generate span before recursing into the
 * model turn (checked against genkit 1.42.0).
 */
let harness: CaptureHarness;

beforeAll(async () => {
  harness = await startCaptureHarness({ toolTimeoutMs: 6_500 });
  expect(await harness.supervisor.whenReady()).toBe(true);
});
afterAll(async () => harness?.close());

let runCounter = 0;
async function run(scenario: string, resumeFrom?: GenerateResult): Promise<GenerateResult> {
  const scripted = harness.supervisor.status.scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === scenario);
  return harness.supervisor.generate({
    runId: `test-${++runCounter}`,
    scenario,
    ...(resumeFrom ? { messages: resumeFrom.outcome?.messages, resume: scripted?.resumes?.[0] } : {}),
  });
}

async function spansOf(result: GenerateResult): Promise<Span[]> {
  expect(result.traceIds).toHaveLength(1);
  return (await harness.store.get(result.traceIds[0])) ?? [];
}

function roles(spans: Span[]) {
  const counts = { generate: 0, model: 0, tool: 0, other: 0, flow: 0 };
  for (const span of spans) counts[classifySpan(span).role] += 1;
  return counts;
}

/** Every span's parent is in the trace, except exactly one root: a generate. */
function expectConnectedTree(spans: Span[]) {
  const ids = new Set(spans.map((span) => span.spanId));
  const roots = spans.filter((span) => span.parentSpanId === undefined);
  expect(roots).toHaveLength(1);
  expect(classifySpan(roots[0]).role).toBe('generate');
  for (const span of spans) if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId)).toBe(true);
}

describe('scenarios through the real capture path', () => {
  it('loads every tool and scenario without problems', () => {
    const status = harness.supervisor.status;
    expect(status.problems).toEqual([]);
    expect(status.toolsByRuntime['genkit-js'].map((tool) => tool.name).sort()).toEqual(
      ['askUser', 'checkInventory', 'convertTemperature', 'exitProcess', 'generateReport', 'getWeather', 'lookupOrder', 'readPage', 'searchDocs', 'transferMoney'].sort(),
    );
    expect(status.toolsByRuntime['genkit-js'].find((tool) => tool.name === 'askUser')?.restartable).toBe(false);
    expect(status.scenarios.length).toBeGreaterThanOrEqual(10);
  });

  it('plain-tool-round: 2 model calls + 2 tool runs = 6 spans', async () => {
    const result = await run('plain-tool-round');
    expect(result.failure).toBeUndefined();
    expect(result.outcome?.finishReason).toBe('stop');
    expect(result.outcome?.text).toContain('Lisbon');
    const spans = await spansOf(result);
    expect(spans).toHaveLength(6);
    expect(roles(spans)).toMatchObject({ generate: 2, model: 2, tool: 2 });
    expectConnectedTree(spans);
    // Both tools ran in the same turn: siblings under the root generate.
    const tools = spans.filter((span) => classifySpan(span).role === 'tool');
    expect(new Set(tools.map((span) => span.parentSpanId)).size).toBe(1);
  });

  it('restart-after-approval: interrupt (3 spans), then restart (4 spans), the tool reads ctx.resumed', async () => {
    const first = await run('restart-after-approval');
    expect(first.outcome?.finishReason).toBe('interrupted');
    const firstSpans = await spansOf(first);
    expect(firstSpans).toHaveLength(3);
    expectConnectedTree(firstSpans);
    const interrupted = firstSpans.find((span) => classifySpan(span).role === 'tool')!;
    expect(classifySpan(interrupted).outcome).toBe('interrupted');
    expect(JSON.parse(interrupted.attributes['genkit:metadata:interrupt'] as string)).toMatchObject({ reason: 'approval-required' });

    const resumed = await run('restart-after-approval', first);
    expect(resumed.failure).toBeUndefined();
    expect(resumed.outcome?.finishReason).toBe('stop');
    const resumeSpans = await spansOf(resumed);
    expect(resumeSpans).toHaveLength(4);
    expectConnectedTree(resumeSpans);
    const restarted = resumeSpans.find((span) => classifySpan(span).role === 'tool')!;
    expect(classifySpan(restarted).restarted).toBe(true);
    expect(JSON.parse(restarted.attributes['genkit:output'] as string)).toMatchObject({ status: 'done', approvedBy: 'alice' });
  });

  it('respond-to-question: the answer runs no tool, so the resume has no tool span (3 spans)', async () => {
    const first = await run('respond-to-question');
    expect(first.outcome?.finishReason).toBe('interrupted');
    expect(await spansOf(first)).toHaveLength(3);
    const resumed = await run('respond-to-question', first);
    expect(resumed.outcome?.finishReason).toBe('stop');
    const spans = await spansOf(resumed);
    expect(spans).toHaveLength(3);
    expect(roles(spans)).toMatchObject({ generate: 2, model: 1, tool: 0 });
  });

  it('parallel-pending-output: one finishes, one interrupts; the resume re-runs only the interrupted one', async () => {
    const first = await run('parallel-pending-output');
    expect(first.outcome?.finishReason).toBe('interrupted');
    const spans = await spansOf(first);
    expect(spans).toHaveLength(4);
    const outcomes = spans.filter((span) => classifySpan(span).role === 'tool').map((span) => [classifySpan(span).label, classifySpan(span).outcome]);
    expect(outcomes.sort()).toEqual([['lookupOrder', 'ok'], ['transferMoney', 'interrupted']]);
    const lastMessage = first.outcome?.messages.at(-1) as { content: { metadata?: Record<string, unknown> }[] };
    expect(lastMessage.content.some((part) => part.metadata?.pendingOutput !== undefined)).toBe(true);

    const resumed = await run('parallel-pending-output', first);
    expect(resumed.outcome?.finishReason).toBe('stop');
    const resumeSpans = await spansOf(resumed);
    expect(resumeSpans).toHaveLength(4);
    expect(resumeSpans.filter((span) => classifySpan(span).role === 'tool').map((span) => classifySpan(span).label)).toEqual(['transferMoney']);
  });

  it('tool-throws: the error fails the generate (3 spans, tool and root in error)', async () => {
    const result = await run('tool-throws');
    expect(result.failure?.message).toContain('Inventory service returned 503');
    const spans = await spansOf(result);
    expect(spans).toHaveLength(3);
    const tool = spans.find((span) => classifySpan(span).role === 'tool')!;
    expect(classifySpan(tool).outcome).toBe('error');
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    expect(classifySpan(root).outcome).toBe('error');
  });

  it('unknown-tool: genkit fails before any tool runs (2 spans, no tool span)', async () => {
    const result = await run('unknown-tool');
    expect(result.failure?.message).toMatch(/cancelSubscription/);
    const spans = await spansOf(result);
    expect(spans).toHaveLength(2);
    expect(roles(spans)).toMatchObject({ generate: 1, model: 1, tool: 0 });
  });

  it('multi-round-research: 5 model calls + 4 tool runs = 14 spans, each round nested in the previous', async () => {
    const result = await run('multi-round-research');
    expect(result.outcome?.finishReason).toBe('stop');
    const spans = await spansOf(result);
    expect(spans).toHaveLength(14);
    expect(roles(spans)).toMatchObject({ generate: 5, model: 5, tool: 4 });
    expectConnectedTree(spans);
  });

  it('long-loop: 61 model calls + 60 tool runs = 182 spans, every round nested in the previous, all arrive', async () => {
    const result = await run('long-loop');
    expect(result.outcome?.finishReason).toBe('stop');
    const spans = await spansOf(result);
    expect(spans).toHaveLength(182);
    expect(roles(spans)).toMatchObject({ generate: 61, model: 61, tool: 60 });
    expectConnectedTree(spans);
  });

  it('slow-tool: finishes after its 5 s delay, inside the tool limit (2 model calls + 1 tool = 5 spans)', async () => {
    const result = await run('slow-tool');
    expect(result.outcome?.text).toContain('42 rows');
    expect(await spansOf(result)).toHaveLength(5);
  });

  it('tool-hangs: the tool time limit fails the run; the runner ends the hung tool span as failed, so 3 spans arrive', async () => {
    const result = await run('tool-hangs');
    expect(result.failure?.message).toMatch(/did not finish within 6500 ms/);
    const spans = await spansOf(result);
    expect(spans).toHaveLength(3);
    expect(roles(spans)).toMatchObject({ generate: 1, model: 1, tool: 1 });
    // genkit never ends the span of a tool whose promise never settles: the runner closed it.
    const tool = spans.find((span) => classifySpan(span).role === 'tool')!;
    expect(tool.name).toBe('generateReport');
    expect(tool.endTimeUnixNano).toBeDefined();
    expect(tool.status.code).toBe(2);
    expect(tool.status.message).toMatch(/did not finish within 6500 ms/);
    expect(tool.attributes[CLOSED_BY_ATTRIBUTE]).toBe('run-ended');
    expect(tool.attributes['genkit:input']).toBe('{"seconds":3600}');
    // So the graph shows a failed tool with the cause, not "never ran" or "running…".
    const node = buildRunGraph(spans).nodes.find((candidate) => candidate.kind === 'tool-call');
    expect(node).toMatchObject({ label: 'generateReport#report-1', status: 'failed', tone: 'error' });
    expect(node?.detail).toMatch(/did not finish within 6500 ms/);
  });

  it('tool-exits-process: the run fails with the exit code, a fresh runner takes the next run', async () => {
    const oldPid = harness.supervisor.status.pid;
    const result = await run('tool-exits-process');
    expect(result.failure?.message).toMatch(/exited with code 3/);
    // The finished model call and the two spans the dead runner left open (closed as failed).
    expect(await spansOf(result)).toHaveLength(3);
    expect(await harness.supervisor.whenReady()).toBe(true);
    expect(harness.supervisor.status.pid).not.toBe(oldPid);
    const next = await run('plain-tool-round');
    expect(next.outcome?.finishReason).toBe('stop');
    expect(await spansOf(next)).toHaveLength(6);
  });
});
