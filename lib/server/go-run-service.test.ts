import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/build-run-graph';
import { scenarioList } from './scenario-list';
import { resumeRun, startRun } from './run-service';
import { runEnded, useRunnerContext } from './testing/runner-context';

/** genkit Go scenarios run from the server as from the home page: the Go runner built, started and answered by the scenario's scripted resume. */
const runner = useRunnerContext();

describe('genkit Go runs from the server', () => {
  it('lists the Go scenarios with the others', async () => {
    const list = await scenarioList(runner.context);
    expect(list.scenarios.filter((scenario) => scenario.runtime === 'genkit-go').map((scenario) => scenario.name)).toContain('go-restart-after-approval');
    expect(list.scenarios.some((scenario) => scenario.runtime === 'ai-sdk')).toBe(true);
    // Listing builds nothing: the Go runner is built by the first Go run.
    expect(list.goRunner).toEqual({ state: 'idle', tools: [] });
  });

  it('runs a Go scenario to its interrupt, resumes it with the scripted restart, and draws both calls linked', async () => {
    await scenarioList(runner.context);
    const run = await startRun({ context: runner.context, scenario: 'go-restart-after-approval' });
    const paused = await runEnded({ context: runner.context, runId: run.runId, timeoutMs: 300_000 });
    expect(paused).toMatchObject({ status: 'interrupted', finishReason: 'interrupted', interrupts: [{ name: 'transferMoney', ref: 'transfer-1' }] });
    resumeRun({ context: runner.context, runId: run.runId });
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done).toMatchObject({ status: 'finished', text: 'Transfer done: 500 USD to Bob, approved by alice.' });
    // The first call's trace and the resume's (its restarted tool inside it).
    expect(done.traceIds).toHaveLength(2);
    const spans = [];
    for (const traceId of done.traceIds) spans.push(...((await runner.harness.store.get(traceId)) ?? []));
    expect(buildRunGraph(spans).summary).toMatchObject({ generates: 2, interrupts: 1, restarts: 1, errors: 0, finishReason: 'stop' });
    // Once it ran, the list shows the Go runner ready with its tools, the typed ones with their resume type.
    const { goRunner } = await scenarioList(runner.context);
    expect(goRunner.state).toBe('ready');
    expect(goRunner.tools).toContainEqual({ name: 'transferMoney', resumeType: 'tools.Approval' });
    expect(goRunner.tools).toContainEqual({ name: 'sendEmail' });
  }, 320_000);

  it('refuses a step-by-step Go run in one sentence', async () => {
    await expect(startRun({ context: runner.context, scenario: 'go-plain-tool-round', mode: { kind: 'step' } })).rejects.toThrow(/not built for genkit Go yet/);
  });
});
