import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { CLOSED_BY_ATTRIBUTE } from '../../spans/loopscope-attributes';
import { classifySpan } from '../../runtimes/classify-span';
import type { Span } from '../../spans/span';
import type { PauseInfo } from '../../runner/step-protocol';
import type { RunRunnerInfo, RunnerSupervisorOptions } from './runner-supervisor';
import type { GenerateResult } from '../../runner/run-requests';
import { startCaptureHarness, type CaptureHarness } from '../testing/capture-harness';

/**
 * Crash isolation with real runner processes (the project's own tools/): one tool that kills
 * its runner fails only its own run, says which tool did it, and its trace is kept.
 */
let harness: CaptureHarness;
const runnerInfo = new Map<string, RunRunnerInfo[]>();
const pauses = new Map<string, PauseInfo[]>();

/** Records what the supervisor tells about runs: which runner, and their pauses. */
const watchRuns: Partial<RunnerSupervisorOptions> = {
  onRunRunner: (runId, info) => runnerInfo.set(runId, [...(runnerInfo.get(runId) ?? []), info]),
  onPause: (runId, pause) => pauses.set(runId, [...(pauses.get(runId) ?? []), pause]),
  onPauseEnded: (runId, pauseId) => pauses.set(runId, (pauses.get(runId) ?? []).filter((pause) => pause.pauseId !== pauseId)),
};

beforeAll(async () => {
  harness = await startCaptureHarness({ toolTimeoutMs: 20_000, ...watchRuns });
  expect(await harness.supervisor.whenReady()).toBe(true);
}, 60_000);
afterAll(async () => harness?.close());

/** Polls a condition of the supervisor's reports (they arrive over IPC, at their own pace). */
async function until(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pidOf = (runId: string) => runnerInfo.get(runId)?.find((info) => info.pid !== undefined)?.pid;

/** Lets a step run go on at every pause until it ends. */
async function continueToEnd(target: CaptureHarness, runId: string, done: Promise<GenerateResult>): Promise<GenerateResult> {
  let ended = false;
  void done.then(() => (ended = true));
  while (!ended) {
    for (const pause of pauses.get(runId) ?? []) {
      const answer = await target.supervisor.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision: { action: 'continue' } });
      if (!answer.ok && !/pause is over/.test(answer.message ?? '')) throw new Error(`continue refused: ${answer.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done;
}

function roles(spans: Span[]) {
  const counts = { generate: 0, model: 0, tool: 0, other: 0, flow: 0 };
  for (const span of spans) counts[classifySpan(span).role] += 1;
  return counts;
}

describe('one tool cannot fail other runs', () => {
  it('sequential runs reuse one warm runner, with a spare ready beside it', { timeout: 60_000 }, async () => {
    const first = await harness.supervisor.generate({ runId: 'sequential-1', scenario: 'plain-tool-round' });
    const second = await harness.supervisor.generate({ runId: 'sequential-2', scenario: 'plain-tool-round' });
    expect(first.failure).toBeUndefined();
    expect(second.failure).toBeUndefined();
    expect(pidOf('sequential-1')).toBeDefined();
    expect(pidOf('sequential-2')).toBe(pidOf('sequential-1'));
    // Neither waited: a ready runner was there both times.
    expect(runnerInfo.get('sequential-1')?.some((info) => info.waiting)).toBe(false);
    expect(runnerInfo.get('sequential-2')?.some((info) => info.waiting)).toBe(false);
    // The spare started when the first run took the only idle runner; it is ready beside it.
    const idle = () => harness.supervisor.status.runners?.filter((runner) => runner.state === 'idle') ?? [];
    await until('a spare is ready beside the reused runner', () => idle().length === 2);
    expect(idle().map((runner) => runner.pid)).toContain(pidOf('sequential-1'));
    expect(harness.supervisor.status.runners).toHaveLength(2);
  });

  it('10 concurrent plain runs and one run whose tool calls process.exit: only that run fails, naming its tool, and its trace is stored', { timeout: 90_000 }, async () => {
    const plain = Array.from({ length: 10 }, (_, index) => harness.supervisor.generate({ runId: `plain-${index}`, scenario: 'plain-tool-round' }));
    const exiting = harness.supervisor.generate({ runId: 'exits', scenario: 'tool-exits-process' });
    const [failed, ...finished] = await Promise.all([exiting, ...plain]);

    for (const result of finished) {
      expect(result.failure).toBeUndefined();
      expect(result.outcome?.finishReason).toBe('stop');
      // Every span of every plain run arrived: 2 model calls + 2 tool runs = 6.
      expect(result.traceIds).toHaveLength(1);
      expect(await harness.store.get(result.traceIds[0])).toHaveLength(6);
    }

    expect(failed.failure?.status).toBe('UNAVAILABLE');
    expect(failed.failure?.message).toContain("The runner exited with code 3 while tool 'exitProcess' (ref exit-1) of this run was running");
    expect(failed.failure?.message).toContain('a tool may have called process.exit');

    // Stored: the finished model call, plus the generate and the tool that never ended, closed as failed.
    expect(failed.traceIds).toHaveLength(1);
    const spans = (await harness.store.get(failed.traceIds[0])) ?? [];
    expect(spans).toHaveLength(3);
    expect(roles(spans)).toMatchObject({ generate: 1, model: 1, tool: 1 });
    const closed = spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] === 'runner-died');
    expect(closed.map((span) => classifySpan(span).role).sort()).toEqual(['generate', 'tool']);
    for (const span of closed) {
      expect(span.status.code).toBe(2);
      expect(span.status.message).toContain('The runner exited with code 3');
      expect(span.endTimeUnixNano).toBeDefined();
    }
    const tool = closed.find((span) => classifySpan(span).role === 'tool')!;
    expect(tool.name).toBe('exitProcess');
    expect(tool.attributes['genkit:input']).toBe('{"code":3}');
    const model = spans.find((span) => classifySpan(span).role === 'model')!;
    expect(classifySpan(model).outcome).toBe('ok');
    expect(model.attributes[CLOSED_BY_ATTRIBUTE]).toBeUndefined();

    // The graph shows the tool failed with the cause; nothing is left running.
    const graph = buildRunGraph(spans);
    const toolNode = graph.nodes.find((node) => node.kind === 'tool-call');
    expect(toolNode).toMatchObject({ label: 'exitProcess#exit-1', status: 'failed', tone: 'error' });
    expect(toolNode?.detail).toContain('exited with code 3');
    expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);
    expect(graph.summary.errors).toBe(1);

    // Listed like any trace.
    expect((await harness.store.list()).map((summary) => summary.traceId)).toContain(failed.traceIds[0]);
    // The dead runner was replaced.
    expect(await harness.supervisor.whenReady()).toBe(true);
  });

  it('two step runs on two runners: the decisions of each reach the runner that holds it', { timeout: 60_000 }, async () => {
    const first = harness.supervisor.generate({ runId: 'step-a', scenario: 'plain-tool-round', mode: { kind: 'step' } });
    const second = harness.supervisor.generate({ runId: 'step-b', scenario: 'plain-tool-round', mode: { kind: 'step' } });
    await until('both step runs pause', () => (pauses.get('step-a')?.length ?? 0) > 0 && (pauses.get('step-b')?.length ?? 0) > 0);
    expect(pidOf('step-a')).toBeDefined();
    expect(pidOf('step-b')).not.toBe(pidOf('step-a'));
    const [a, b] = await Promise.all([continueToEnd(harness, 'step-a', first), continueToEnd(harness, 'step-b', second)]);
    expect(a.outcome?.finishReason).toBe('stop');
    expect(b.outcome?.finishReason).toBe('stop');
  });
});

describe('a pool of one runner (LOOPSCOPE_MAX_RUNNERS=1)', () => {
  let small: CaptureHarness;
  beforeAll(async () => {
    small = await startCaptureHarness({ maxRunners: 1, ...watchRuns });
    expect(await small.supervisor.whenReady()).toBe(true);
  }, 60_000);
  afterAll(async () => small?.close());

  it('a paused step run does not block new runs: they share its runner, say so, and finish while it stays paused', { timeout: 60_000 }, async () => {
    const step = small.supervisor.generate({ runId: 'paused-step', scenario: 'plain-tool-round', mode: { kind: 'step' } });
    await until('the step run pauses', () => (pauses.get('paused-step')?.length ?? 0) > 0);
    const beside = await Promise.all([1, 2].map((index) => small.supervisor.generate({ runId: `beside-${index}`, scenario: 'plain-tool-round' })));
    for (const result of beside) expect(result.outcome?.finishReason).toBe('stop');
    for (const runId of ['beside-1', 'beside-2']) {
      expect(runnerInfo.get(runId)?.at(-1)).toEqual({ pid: pidOf('paused-step'), sharedWith: ['paused-step'] });
    }
    expect(pauses.get('paused-step')).toHaveLength(1);
    expect((await small.supervisor.command({ type: 'stop', runId: 'paused-step' })).ok).toBe(true);
    expect((await step).failure?.message).toMatch(/stopped by the user/);
  });

  it('when a run that shared the runner of a paused run kills it, the paused run fails naming the other run and its tool', { timeout: 60_000 }, async () => {
    const step = small.supervisor.generate({ runId: 'paused-victim', scenario: 'plain-tool-round', mode: { kind: 'step' } });
    await until('the step run pauses', () => (pauses.get('paused-victim')?.length ?? 0) > 0);
    const exiting = await small.supervisor.generate({ runId: 'shared-exit', scenario: 'tool-exits-process' });
    expect(runnerInfo.get('shared-exit')?.at(-1)?.sharedWith).toEqual(['paused-victim']);
    expect(exiting.failure?.message).toContain("The runner exited with code 3 while tool 'exitProcess' (ref exit-1) of this run was running");
    const victim = await step;
    expect(victim.failure?.message).toContain("The runner exited with code 3 while tool 'exitProcess' (ref exit-1) of run shared-exit was running (this run shared that runner)");
    // The paused run's open generate was closed too: its trace is stored, failed.
    const spans = (await small.store.get(victim.traceIds[0])) ?? [];
    expect(spans.map((span) => classifySpan(span).role)).toEqual(['generate']);
    expect(spans[0].status.code).toBe(2);
    expect(await small.supervisor.whenReady()).toBe(true);
  });

  it('beyond capacity a run waits, in the open, for a runner whose run is executing, then runs on it', { timeout: 60_000 }, async () => {
    const slow = small.supervisor.generate({ runId: 'busy-slow', scenario: 'slow-tool' });
    await until('the slow run holds the runner', () => small.supervisor.status.runners?.some((runner) => runner.runIds.includes('busy-slow')) ?? false);
    const next = small.supervisor.generate({ runId: 'after-slow', scenario: 'plain-tool-round' });
    await until('the next run says it waits', () => runnerInfo.get('after-slow')?.some((info) => info.waiting) ?? false);
    expect(runnerInfo.get('after-slow')?.[0].waiting).toBe('waiting for a runner: the only runner is busy (LOOPSCOPE_MAX_RUNNERS=1)');
    expect(small.supervisor.status.waiting).toBe(1);
    const [slowResult, nextResult] = await Promise.all([slow, next]);
    expect(slowResult.outcome?.text).toContain('42 rows');
    expect(nextResult.outcome?.finishReason).toBe('stop');
    expect(runnerInfo.get('after-slow')?.at(-1)).toEqual({ pid: pidOf('busy-slow') });
  });

  it('a run that waits longer than LOOPSCOPE_RUNNER_WAIT_MS fails saying what holds the runner', { timeout: 60_000 }, async () => {
    const impatient = await startCaptureHarness({ maxRunners: 1, runnerWaitMs: 1_000 });
    try {
      expect(await impatient.supervisor.whenReady()).toBe(true);
      const slow = impatient.supervisor.generate({ runId: 'holds-it', scenario: 'slow-tool' });
      const refused = await impatient.supervisor.generate({ runId: 'gives-up', scenario: 'plain-tool-round' });
      expect(refused.failure).toEqual({
        status: 'UNAVAILABLE',
        message: 'The only runner stayed busy for 1 s (runs holds-it); raise LOOPSCOPE_MAX_RUNNERS or stop a paused run.',
      });
      expect((await slow).outcome?.text).toContain('42 rows');
    } finally {
      await impatient.close();
    }
  });
});

describe('runs whose runner lives on', () => {
  it('its spans are stored from the runner’s IPC reports, none over OTLP, all of them before the result comes back', { timeout: 40_000 }, async () => {
    // A quiet time longer than the run: nothing is written until the request ends, so the one
    // append is the supervisor's flush before it answers.
    const behind = await startCaptureHarness({ writeBehind: { quietMs: 10_000, maxDelayMs: 10_000 } });
    try {
      expect(await behind.supervisor.whenReady()).toBe(true);
      const result = await behind.supervisor.generate({ runId: 'ipc-1', scenario: 'plain-tool-round' });
      expect(result.outcome?.finishReason).toBe('stop');
      expect(await behind.store.get(result.traceIds[0])).toHaveLength(6);
      expect(behind.fromRunners.map((span) => span.traceId)).toEqual(Array(6).fill(result.traceIds[0]));
      expect(behind.runnerWrites).toBe(1);
      expect(behind.requests).toBe(0);
      expect(behind.received).toHaveLength(0);
    } finally {
      await behind.close();
    }
  });
});
