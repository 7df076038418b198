import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { scenarioList } from './scenario-list';
import type { PauseInfo } from '../../contract/pause';
import { ghostNodes } from '../../graph/ghost-nodes';
import { liveRunSpans } from '../live/live-run-spans';
import { continueRun, decidePause, resumeRun, setBreakpoints, startRun, stepRun, stopRun } from './run-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

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

  it('steps a Go run from the server: its pauses in the run, ghosts where it stands (drawn from its open spans), Step, breakpoints changed while paused, Continue', async () => {
    await scenarioList(runner.context);
    const run = await startRun({ context: runner.context, scenario: 'go-plain-tool-round', mode: { kind: 'step' } });
    /** Waits until the run's pauses are these (by their labels in the graph). */
    const pausedAt = async (count: number, where: (pause: PauseInfo) => boolean) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const pauses = runner.context.runs.get(run.runId)?.pauses ?? [];
        if (pauses.length === count && pauses.every(where)) break;
        if (Date.now() > deadline) throw new Error(`the run did not pause ${count} time(s)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const session = runner.context.runs.get(run.runId)!;
      const graph = buildRunGraph(await liveRunSpans(runner.context, session));
      return { session, ghosts: ghostNodes(graph, session.pauses) };
    };
    const first = await pausedAt(1, (pause) => pause.modelTurn === 1);
    // The trace is the run's while it is paused (told by the Go runner's first span start).
    expect(first.session.traceIds).toHaveLength(1);
    expect(first.ghosts.nodes.map((node) => node.label)).toEqual(['paused before model call 1']);
    await stepRun(runner.context, run.runId);
    const tools = await pausedAt(2, (pause) => pause.kind === 'tool');
    expect(tools.ghosts.nodes.map((node) => node.label).sort()).toEqual(['paused before convertTemperature#convert-1', 'paused before getWeather#weather-1']);
    // The model's requests are drawn (its span was exported before the pause was told): the ghosts take their place.
    expect(tools.ghosts.hidden.size).toBe(2);
    const withBreakpoint = await setBreakpoints({ context: runner.context, runId: run.runId, breakpoints: { tools: [], modelTurns: [2] } });
    expect(withBreakpoint.mode).toEqual({ kind: 'step', breakpoints: { tools: [], modelTurns: [2] } });
    // Continue runs to the breakpoint set while paused: model call 2.
    await continueRun(runner.context, run.runId);
    const atBreakpoint = await pausedAt(1, (pause) => pause.modelTurn === 2);
    expect(atBreakpoint.session.pauses[0]).toMatchObject({ kind: 'model', modelTurn: 2 });
    expect(atBreakpoint.ghosts.nodes.map((node) => node.label)).toEqual(['paused before model call 2']);
    await continueRun(runner.context, run.runId);
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done).toMatchObject({ status: 'finished', text: 'It is 24°C (75°F) and sunny in Lisbon.', pauses: [], mode: { kind: 'breakpoints', breakpoints: { modelTurns: [2] } } });
  }, 120_000);

  it('stops a paused Go run from the server; a decision for it afterwards is refused', async () => {
    const run = await startRun({ context: runner.context, scenario: 'go-plain-tool-round', mode: { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } } });
    const deadline = Date.now() + 60_000;
    while ((runner.context.runs.get(run.runId)?.pauses.length ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error('the run did not pause');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [pause] = runner.context.runs.get(run.runId)!.pauses;
    expect(pause.tool?.name).toBe('getWeather');
    // Stop answers with the run ended: stopped, not failed.
    expect(await stopRun(runner.context, run.runId)).toMatchObject({ status: 'stopped' });
    const done = await runEnded({ context: runner.context, runId: run.runId });
    expect(done.status).toBe('stopped');
    expect(done.failure?.message).toContain('stopped by the user while paused');
    await expect(decidePause({ context: runner.context, runId: run.runId, pauseId: pause.pauseId, decision: { action: 'continue' } })).rejects.toThrow(/only a running run can be stepped/);
  }, 120_000);
});
