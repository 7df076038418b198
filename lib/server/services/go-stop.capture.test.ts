import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { classifySpan } from '../../runtimes/classify-span';
import { CLOSED_BY_ATTRIBUTE } from '../../spans/loopscope-attributes';
import type { Span } from '../../spans/span';
import type { RunSession } from './run-registry';
import { decidePause, startRun, stopRun } from './run-service';
import { runEnded, startRunnerContext } from '../testing/runner-context';
import { GO_HANG_TOOL, makeGoProjectFixture, type GoProjectFixture } from '../testing/go-project-fixture';

/**
 * Stop on genkit Go runs (the real genkit Go module in the Go runner, built from a copy of the
 * project's go/runner and tools/go with a tool that hangs): a Go call with a tool that never
 * returns is stopped at once, its trace says so, and the other Go runs of the same runner process
 * are not taken down — the runner is replaced only once it holds none.
 */
let fixture: GoProjectFixture;
let server: Awaited<ReturnType<typeof startRunnerContext>>;
const started = path.join(os.tmpdir(), `loopscope-go-hang-started-${process.pid}-${Date.now()}`);

beforeAll(async () => {
  fixture = await makeGoProjectFixture({
    tools: { 'hang.go': GO_HANG_TOOL },
    register: ['{Tool: defineGenerateReport(g)}'],
    scenarios: {
      'go-hangs': {
        title: 'Fixture: a Go tool that hangs',
        description: 'generateReport sleeps an hour.',
        prompt: 'Build the yearly report.',
        tools: ['generateReport'],
        script: [{ toolRequests: [{ name: 'generateReport', ref: 'report-1', input: { seconds: 3600, startedFile: started } }] }, { text: 'Never reached.' }],
      },
    },
  });
  server = await startRunnerContext({ projectDir: fixture.root, harnessOptions: { maxRunners: 1 } });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fixture?.remove();
  await rm(started, { force: true });
});

async function spansOf(run: RunSession): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of run.traceIds) spans.push(...((await server.harness.store.get(traceId)) ?? []));
  return spans;
}

/** True while the process exists (the server reaps its children: an exited runner disappears). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Stop on genkit Go runs', () => {
  it('a Go tool that never returns: Stop ends its run at once; a stepped Go run paused in the same runner goes on to its end; then the runner is replaced', { timeout: 600_000 }, async () => {
    const { context } = server;
    // A stepped Go run, paused at its first model call: it holds the Go runner too.
    const other = await startRun({ context, scenario: 'go-plain-tool-round', mode: { kind: 'step' } });
    const deadline = Date.now() + 540_000; // the first Go build of the copy
    while ((context.runs.get(other.runId)?.pauses.length ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error('the stepped Go run never paused');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pid = context.goRunner.status.pid!;
    expect(pid).toBeGreaterThan(0);

    // Run mode: no step hooks in this call; its tool sleeps an hour.
    const hanging = await startRun({ context, scenario: 'go-hangs' });
    await expect.poll(() => existsSync(started), { timeout: 30_000 }).toBe(true);
    const stopped = await stopRun(context, hanging.runId);
    expect(stopped).toMatchObject({ status: 'stopped', failure: { status: 'CANCELLED' } });
    expect(stopped.failure?.message).toContain("The run was stopped by the user while tool 'generateReport' was running");

    const spans = await spansOf(stopped);
    expect(spans.map((span) => `${classifySpan(span).role} ${span.name}`).sort()).toEqual(['generate generate', 'model scripted/go-hangs', 'tool generateReport']);
    const closed = spans.filter((span) => span.attributes[CLOSED_BY_ATTRIBUTE] === 'run-stopped');
    expect(closed.map((span) => span.name).sort()).toEqual(['generate', 'generateReport']);
    for (const span of closed) {
      expect(span.attributes['genkit:state']).toBe('error');
      expect(span.status).toEqual({ code: 2, message: 'The run was stopped by the user before this span ended (closed by Loopscope).' });
      expect(span.endTimeUnixNano).toBeDefined();
    }
    const graph = buildRunGraph(spans);
    expect(graph.nodes.find((node) => node.kind === 'tool-call')).toMatchObject({ label: 'generateReport#report-1', status: 'failed', tone: 'error', detail: expect.stringContaining('stopped by the user') });
    expect(graph.nodes.filter((node) => node.tone === 'running')).toEqual([]);

    // The other Go run was not taken down: it steps on to its answer, in the same process.
    expect(alive(pid)).toBe(true);
    const stepDeadline = Date.now() + 30_000;
    for (;;) {
      const run = context.runs.get(other.runId)!;
      if (run.status !== 'running') break;
      if (Date.now() > stepDeadline) throw new Error('the paused run did not step to its end');
      if (run.pauses[0]) await decidePause({ context, runId: other.runId, pauseId: run.pauses[0].pauseId, decision: { action: 'continue' } }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(context.runs.get(other.runId)).toMatchObject({ status: 'finished', text: 'It is 24°C (75°F) and sunny in Lisbon.' });

    // Holding no call now, the runner with the sleeping goroutine is stopped; the next Go run starts another.
    await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);
    const next = await startRun({ context, scenario: 'go-plain-tool-round' });
    expect(await runEnded({ context, runId: next.runId, timeoutMs: 120_000 })).toMatchObject({ status: 'finished' });
    expect(context.goRunner.status.pid).not.toBe(pid);
  });
});
