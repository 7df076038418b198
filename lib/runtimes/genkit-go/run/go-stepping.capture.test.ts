import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoRunnerStepLine } from '../../../contract/go-runner-lines';
import type { PauseDecision, PauseInfo } from '../../../contract/pause';
import type { RunMode } from '../../../contract/run-mode';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { startTestReceiver, type TestReceiver } from '../../../server/testing/capture-harness';
import type { Span } from '../../../spans/span';
import { buildGoRunner, startGoRunner, type GoGenerateResult, type GoRunner } from './go-runner';

/**
 * Step-by-step genkit Go runs in the real Go runner (go/runner/step.go: genkit Go's own
 * middleware, WrapModel / WrapTool): where it pauses, the decisions each pause takes and what
 * each does to the run and its spans, received over OTLP by a loopback receiver and counted.
 */
let receiver: TestReceiver;
let runner: GoRunner;
const lines: Exclude<GoRunnerStepLine, { type: 'command-result' }>[] = [];

beforeAll(async () => {
  receiver = await startTestReceiver();
  const binary = await buildGoRunner({ projectDir: process.cwd() });
  runner = await startGoRunner({ binary, projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token, onStepLine: (line) => lines.push(line) });
}, 600_000);
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
});

let runs = 0;

/** Starts a stepped call; `pauses()` waits for the next pauses of this run that have not ended. */
function stepped(scenario: string, mode: RunMode, extra: { messages?: unknown[]; resume?: { respond?: unknown[]; restart?: unknown[] } } = {}) {
  const runId = `go-step-${(runs += 1)}`;
  const done = runner.generate({ scenario, runId, mode, ...extra });
  const seen = new Set<string>();
  const open = () => {
    const ended = new Set(lines.flatMap((line) => (line.type === 'pause-ended' && line.runId === runId ? [line.pauseId] : [])));
    return lines.flatMap((line) => (line.type === 'paused' && line.runId === runId && !ended.has(line.pause.pauseId) && !seen.has(line.pause.pauseId) ? [line.pause] : []));
  };
  return {
    runId,
    done,
    /** The next `count` pauses (parallel tools pause together). */
    async pauses(count = 1): Promise<PauseInfo[]> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const waiting = open();
        if (waiting.length >= count) {
          for (const pause of waiting) seen.add(pause.pauseId);
          return waiting;
        }
        if (Date.now() > deadline) throw new Error(`run ${runId}: ${waiting.length} of ${count} pause(s) after 20 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    decide: (pause: PauseInfo, decision: PauseDecision) => runner.command({ type: 'pause-decision', runId, pauseId: pause.pauseId, decision }),
    spanStarts: () => lines.flatMap((line) => (line.type === 'span-start' && line.span.runId === runId ? [line.span] : [])),
  };
}

async function spansOf(result: GoGenerateResult): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of result.traceIds ?? []) spans.push(...((await receiver.store.get(traceId)) ?? []));
  return spans;
}


describe('genkit Go stepped in the Go runner', () => {
  it('step mode pauses before each model call and each tool execution (parallel tools together), each pause listing Go’s decisions; the spans are those of a run straight through', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'step' });
    const [model] = await run.pauses();
    expect(model).toMatchObject({ kind: 'model', modelTurn: 1, actions: ['continue', 'edit-request', 'replace-answer', 'fail'] });
    expect(model.request).toEqual([{ role: 'user', content: [{ text: "What's the weather in Lisbon, in Fahrenheit?" }] }]);
    expect(model.traceId).toMatch(/^[0-9a-f]{32}$/);
    // The open generate span was told at once, with Go's resource (how the Go dialect claims it).
    expect(run.spanStarts()[0]).toMatchObject({ name: 'generate', traceId: model.traceId, resource: { 'telemetry.sdk.language': 'go' } });
    expect((await run.decide(model, { action: 'continue' })).ok).toBe(true);
    const tools = await run.pauses(2);
    expect(tools.map((pause) => pause.tool).sort((a, b) => a!.name.localeCompare(b!.name))).toEqual([
      { name: 'convertTemperature', ref: 'convert-1', input: { celsius: 24 } },
      { name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } },
    ]);
    expect(tools[0].actions).toEqual(['continue', 'edit-input', 'answer', 'interrupt', 'fail']);
    // Released one by one, in any order.
    await run.decide(tools[1], { action: 'continue' });
    await run.decide(tools[0], { action: 'continue' });
    const [second] = await run.pauses();
    expect(second).toMatchObject({ kind: 'model', modelTurn: 2 });
    await run.decide(second, { action: 'continue' });
    const result = await run.done;
    expect(result.outcome).toMatchObject({ finishReason: 'stop', text: 'It is 24°C (75°F) and sunny in Lisbon.' });
    const spans = await spansOf(result);
    expect(spans.map((span) => span.name).sort()).toEqual(['convertTemperature', 'generate', 'generate', 'getWeather', 'scripted/go-plain-tool-round', 'scripted/go-plain-tool-round']);
    expect(run.spanStarts()).toHaveLength(6);
  });

  it('edit-input runs the tool with the new input (the model’s own kept in loopscope.step.model_arguments); answer records a tool span answered by hand; replace-answer is a loopscope/hand-written model span', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather', 'convertTemperature'], modelTurns: [2] } });
    const tools = await run.pauses(2);
    const weather = tools.find((pause) => pause.tool?.name === 'getWeather')!;
    const convert = tools.find((pause) => pause.tool?.name === 'convertTemperature')!;
    expect(await run.decide(weather, { action: 'edit-input', input: { city: 'Porto' } })).toMatchObject({ ok: true });
    expect(await run.decide(convert, { action: 'answer', output: { fahrenheit: 451 } })).toMatchObject({ ok: true });
    const [model] = await run.pauses();
    expect(model.modelTurn).toBe(2);
    await run.decide(model, { action: 'replace-answer', parts: [{ text: 'Hand-written: 451°F in Porto.' }] });
    const result = await run.done;
    expect(result.outcome).toMatchObject({ finishReason: 'stop', text: 'Hand-written: 451°F in Porto.' });
    const spans = await spansOf(result);
    const weatherSpan = spans.find((span) => span.name === 'getWeather')!;
    expect(JSON.parse(weatherSpan.attributes['genkit:input'] as string)).toEqual({ city: 'Porto' });
    expect(JSON.parse(weatherSpan.attributes['loopscope.step.model_arguments'] as string)).toEqual({ city: 'Lisbon' });
    const convertSpan = spans.find((span) => span.name === 'convertTemperature')!;
    expect(convertSpan.attributes['genkit:metadata:loopscope:answeredByHand']).toBe('true');
    expect(convertSpan.attributes['genkit:metadata:subtype']).toBe('tool.v2');
    expect(spans.map((span) => span.name)).toContain('loopscope/hand-written');
    // The graph reads them as the genkit JS run's: answered by hand, a hand-written model call.
    const graph = buildRunGraph(spans);
    const turns = graph.generates[0].turns;
    expect(turns[0].toolCalls.find((call) => call.name === 'convertTemperature')?.answeredByHand).toBe(true);
    expect(turns.at(-1)?.model?.handWritten).toBe(true);
    expect(graph.summary).toMatchObject({ modelCalls: 2, toolCalls: 2, errors: 0, finishReason: 'stop' });
  });

  it('edit-request sends the model the edited messages (its span records them; the generate span is marked)', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [1] } });
    const [model] = await run.pauses();
    const edited = [{ role: 'user', content: [{ text: 'What is the weather in Oslo?' }] }];
    expect(await run.decide(model, { action: 'edit-request', request: edited })).toMatchObject({ ok: true });
    const result = await run.done;
    const spans = await spansOf(result);
    const firstModel = spans.filter((span) => span.name === 'scripted/go-plain-tool-round').sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)))[0];
    expect(firstModel.attributes['genkit:input']).toContain('Oslo');
    expect(spans.some((span) => span.name === 'generate' && span.attributes['loopscope.step.edited_request'] === 'true')).toBe(true);
    // The graph says so on the call, in the AI SDK stepping's words.
    expect(buildRunGraph(spans).generates[0].notes).toEqual([expect.stringMatching(/^Model call 1 was sent a request edited by hand at a pause/)]);
  });

  it('a request genkit Go cannot read is refused, forced or not; a decision the pause does not take is refused naming the ones it takes', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'step' });
    const [model] = await run.pauses();
    expect(await run.decide(model, { action: 'edit-request', request: { messages: 'nope' }, force: true })).toEqual({ ok: false, message: expect.stringMatching(/^the edited request is not a list of genkit Go messages: /) });
    expect(await run.decide(model, { action: 'answer', output: {} })).toEqual({
      ok: false,
      message: 'This pause does not take "answer": it takes "continue", "edit-request", "replace-answer", "fail".',
    });
    expect(await run.decide(model, { action: 'replace-answer', parts: [{ toolRequest: { name: 'noSuchTool', ref: 'x-1', input: {} } }] })).toMatchObject({ ok: false, problems: ['noSuchTool#x-1: no tool named noSuchTool is registered'] });
    await run.decide(model, { action: 'fail', message: 'Failed here by hand.' });
    const result = await run.done;
    expect(result.failure?.message).toContain('Failed here by hand.');
  });

  it('an input that breaks the tool’s schema is refused naming the field; forced, genkit Go’s own validation fails the tool', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [weather] = await run.pauses();
    const refused = await run.decide(weather, { action: 'edit-input', input: { city: 5 } });
    expect(refused.ok).toBe(false);
    expect(refused.problems?.[0]).toMatch(/^input: city: Invalid type\. Expected: string, given: integer/);
    expect(refused.message).toBe('The decision breaks the tool’s schema; send it with force to see what genkit Go does.');
    expect(await run.decide(weather, { action: 'edit-input', input: { city: 5 }, force: true })).toMatchObject({ ok: true, problems: refused.problems });
    const result = await run.done;
    expect(result.failure?.message).toMatch(/getWeather/);
  });

  it('interrupt at a tool is a real genkit Go interrupt (the call ends "interrupted" with the metadata); fail at a tool fails the generate with the message', async () => {
    const interrupted = stepped('go-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } });
    const [weather] = await interrupted.pauses();
    expect(await interrupted.decide(weather, { action: 'interrupt', metadata: 'not an object' })).toEqual({
      ok: false,
      message: "The interrupt metadata must be a JSON object: genkit Go's interrupt data is a map[string]any.",
    });
    await interrupted.decide(weather, { action: 'interrupt', metadata: { reason: 'paused in Loopscope' } });
    const first = await interrupted.done;
    expect(first.outcome).toMatchObject({ finishReason: 'interrupted', interrupts: [{ name: 'getWeather', ref: 'weather-1', metadata: { reason: 'paused in Loopscope' } }] });
    expect(buildRunGraph(await spansOf(first)).summary).toMatchObject({ interrupts: 1, errors: 0, finishReason: 'interrupted' });

    const failed = stepped('go-plain-tool-round', { kind: 'breakpoints', breakpoints: { tools: ['convertTemperature'], modelTurns: [] } });
    const [convert] = await failed.pauses();
    await failed.decide(convert, { action: 'fail', message: 'Converter unplugged by hand.' });
    const second = await failed.done;
    expect(second.failure?.message).toMatch(/convertTemperature.*Converter unplugged by hand\./);
  });

  it('a restart of an interrupted call pauses before the restarted tool, with the run’s mode', async () => {
    const first = await runner.generate({ scenario: 'go-restart-after-approval' });
    const run = stepped('go-restart-after-approval', { kind: 'breakpoints', breakpoints: { tools: ['transferMoney'], modelTurns: [] } }, {
      messages: first.outcome!.messages,
      resume: { restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true, approvedBy: 'alice' } }] },
    });
    const [restarted] = await run.pauses();
    expect(restarted.tool).toEqual({ name: 'transferMoney', ref: 'transfer-1', input: { to: 'Bob', amountUsd: 500 } });
    await run.decide(restarted, { action: 'continue' });
    expect((await run.done).outcome).toMatchObject({ finishReason: 'stop', text: 'Transfer done: 500 USD to Bob, approved by alice.' });
  });

  it('with genkit Go’s ToolApproval in front, a held tool never reaches the step hook (the hold is decided first); approved on restart, it pauses before it runs', async () => {
    const breakpoints: RunMode = { kind: 'breakpoints', breakpoints: { tools: ['getWeather', 'sendEmail'], modelTurns: [] } };
    const run = stepped('go-tool-approval-approved', breakpoints);
    const [weather] = await run.pauses();
    expect(weather.tool?.name).toBe('getWeather');
    await run.decide(weather, { action: 'continue' });
    const first = await run.done;
    expect(first.outcome).toMatchObject({ finishReason: 'interrupted', interrupts: [{ name: 'sendEmail', ref: 'email-1' }] });
    expect(lines.filter((line) => line.type === 'paused' && line.runId === run.runId)).toHaveLength(1);

    const resumed = stepped('go-tool-approval-approved', breakpoints, {
      messages: first.outcome!.messages,
      resume: { restart: [{ name: 'sendEmail', ref: 'email-1', resumed: { toolApproved: true } }] },
    });
    const [email] = await resumed.pauses();
    expect(email.tool).toMatchObject({ name: 'sendEmail', ref: 'email-1' });
    await resumed.decide(email, { action: 'continue' });
    expect((await resumed.done).outcome?.finishReason).toBe('stop');
  });

  it('breakpoints changed while paused take effect at once; Stop while paused ends the call as cancelled', async () => {
    const run = stepped('go-plain-tool-round', { kind: 'step' });
    const [model] = await run.pauses();
    // No breakpoints left: the run goes on to its end without another pause.
    expect(await runner.command({ type: 'set-mode', runId: run.runId, mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [] } } })).toEqual({ ok: true });
    await run.decide(model, { action: 'continue' });
    expect((await run.done).outcome?.finishReason).toBe('stop');
    expect(lines.filter((line) => line.type === 'paused' && line.runId === run.runId)).toHaveLength(1);

    const stopped = stepped('go-plain-tool-round', { kind: 'step' });
    await stopped.pauses();
    expect(await runner.command({ type: 'stop', runId: stopped.runId })).toEqual({ ok: true });
    const result = await stopped.done;
    expect(result.failure).toMatchObject({ message: expect.stringContaining('The run was stopped by the user while paused.') });
    expect(await runner.command({ type: 'stop', runId: stopped.runId })).toEqual({ ok: false, message: `Run ${stopped.runId} is not running in the genkit Go runner.` });
  });

  it('a run straight through installs no step hooks and tells no span starts', async () => {
    const before = lines.length;
    const result = await runner.generate({ scenario: 'go-plain-tool-round', runId: 'go-straight' });
    expect(result.outcome?.finishReason).toBe('stop');
    expect(lines.slice(before)).toEqual([]);
  });
});
