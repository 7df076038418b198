import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../store/load-trace-file';
import type { Span } from '../../spans/span';
import { startReplay } from './replay-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

/** genkit Go recordings replayed from the server as from the replay page: in the Go runner, the replayed spans received like any app's. */
const runner = useRunnerContext();

async function captured(name: string): Promise<{ spans: Span[]; traceIds: string[] }> {
  const spans = await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__', `${name}.otlp.json`));
  await runner.harness.store.append(spans);
  return { spans, traceIds: [...new Set(spans.map((span) => span.traceId))] };
}

describe('genkit Go replays from the server', () => {
  it('replays a captured interrupt and its restart in the Go runner: a match, the same graph, every replayed span stored', async () => {
    const { spans, traceIds } = await captured('go-restart-after-approval');
    const run = await startReplay(runner.context, { source: { traceIds }, liveTools: false, mode: 'strict' });
    const done = await runEnded({ context: runner.context, runId: run.runId, timeoutMs: 300_000 });
    expect(done.failure).toBeUndefined();
    expect(done).toMatchObject({ status: 'finished', finishReason: 'match' });
    expect(done.traceIds).toHaveLength(2);
    const replayed: Span[] = [];
    for (const traceId of done.traceIds) replayed.push(...((await runner.harness.store.get(traceId)) ?? []));
    expect(replayed).toHaveLength(spans.length);
    expect(buildRunGraph(replayed).summary).toEqual(buildRunGraph(spans).summary);
  }, 320_000);

  it('a fork of a Go tool output goes on leniently and names the model call that reads it', async () => {
    const { spans, traceIds } = await captured('go-plain-tool-round');
    const weather = spans.find((span) => span.name === 'getWeather')!;
    const run = await startReplay(runner.context, {
      source: { traceIds },
      liveTools: false,
      mode: 'strict',
      fork: { kind: 'tool', span: `${weather.traceId}:${weather.spanId}`, output: { city: 'Lisbon', temperatureC: 31, conditions: 'hot' } },
    });
    const done = await runEnded({ context: runner.context, runId: run.runId, timeoutMs: 300_000 });
    expect(done).toMatchObject({ status: 'finished', finishReason: 'diverged' });
    // genkit Go sends a map's keys in order: conditions is the first field that differs.
    expect(done.replay?.report?.divergences[0]).toMatchObject({ kind: 'model-request', call: 'model call 2', recorded: 'sunny', replayed: 'hot', field: expect.stringMatching(/toolResponse\.output\.conditions$/) });
  }, 320_000);
});
