import { describe, expect, it } from 'vitest';
import type { PauseInfo } from '../../contract/pause';
import { AttachedSteps } from './attached-steps';

function hub(holdMs = 50) {
  const events: string[] = [];
  const pauses = new Map<string, PauseInfo>();
  const steps = new AttachedSteps({
    onPause: (runId, pause) => {
      pauses.set(pause.pauseId, pause);
      events.push(`pause ${pause.kind}`);
    },
    onPauseEnded: (runId, pauseId) => {
      pauses.delete(pauseId);
      events.push('ended');
    },
    onTrace: (runId, traceId) => events.push(`trace ${traceId}`),
    onSpanStart: (span) => events.push(`span ${span.name} ${span.spanId} of ${span.runId}`),
    holdMs,
  });
  return { steps, events, pauses };
}

const toolHook = (runId: string, name = 'getWeather') => ({ runId, pause: { kind: 'tool' as const, tool: { name, input: { city: 'Oslo' } }, actions: ['continue' as const, 'answer' as const] } });

describe('AttachedSteps', () => {
  it('goes on at once where the run’s mode wants no pause, and opens one where it does', () => {
    const { steps, events } = hub();
    const token = steps.open('r1', { kind: 'breakpoints', breakpoints: { tools: ['bookTrip'], modelTurns: [2] } });
    const run = steps.authorize('r1', token);
    expect(steps.hook(run, { runId: 'r1', traceId: 'a'.repeat(32), pause: { kind: 'model', modelTurn: 1, actions: ['continue'] } })).toEqual({ decision: { action: 'continue' } });
    expect(steps.hook(run, toolHook('r1'))).toEqual({ decision: { action: 'continue' } });
    expect(steps.hook(run, toolHook('r1', 'bookTrip'))).toMatchObject({ pauseId: expect.any(String) });
    expect(steps.hook(run, { runId: 'r1', pause: { kind: 'model', modelTurn: 2, actions: ['continue'] } })).toMatchObject({ pauseId: expect.any(String) });
    expect(events).toEqual([`trace ${'a'.repeat(32)}`, 'pause tool', 'pause model']);
  });

  it('tells the app’s open span once per span (the live graph draws the pause on it), only with its trace', () => {
    const { steps, events } = hub();
    const run = steps.authorize('r1', steps.open('r1', { kind: 'run' }));
    const openSpan = { spanId: 'b'.repeat(16), name: 'generate', attributes: { 'genkit:type': 'util' }, startTimeUnixNano: '1700000000000000000' };
    steps.hook(run, { runId: 'r1', traceId: 'a'.repeat(32), openSpan, pause: { kind: 'model', modelTurn: 1, actions: ['continue'] } });
    steps.hook(run, { ...toolHook('r1'), traceId: 'a'.repeat(32), openSpan });
    steps.hook(run, { runId: 'r1', openSpan: { ...openSpan, spanId: 'c'.repeat(16) }, pause: { kind: 'model', modelTurn: 2, actions: ['continue'] } });
    expect(events.filter((event) => event.startsWith('span'))).toEqual([`span generate ${'b'.repeat(16)} of r1`]);
  });

  it('checks the run’s token and knows only running runs', () => {
    const { steps } = hub();
    const token = steps.open('r1', { kind: 'step' });
    expect(() => steps.authorize('r1', null)).toThrow(/step token of run r1 is wrong/);
    expect(() => steps.authorize('r1', `${token}x`)).toThrow(/wrong/);
    expect(() => steps.authorize('r2', token)).toThrow(/No stepped run r2/);
    steps.close('r1');
    expect(() => steps.authorize('r1', token)).toThrow(/No stepped run r1/);
  });

  it('holds a wait until the decision, then settles the page’s call with the app’s check: refused keeps the pause, applied ends it', async () => {
    const { steps, pauses } = hub(5_000);
    const run = steps.authorize('r1', steps.open('r1', { kind: 'step' }));
    const { pauseId } = steps.hook(run, toolHook('r1')) as { pauseId: string };
    const waiting = steps.wait(run, pauseId);
    const refused = steps.command({ type: 'pause-decision', runId: 'r1', pauseId, decision: { action: 'answer', output: { city: 'Oslo' } } });
    expect(await waiting).toEqual({ decision: { action: 'answer', output: { city: 'Oslo' } } });
    // A second decision while the first is on its way is refused.
    expect(await steps.command({ type: 'pause-decision', runId: 'r1', pauseId, decision: { action: 'continue' } })).toMatchObject({ ok: false, message: expect.stringContaining('already on its way') });
    steps.ack(run, { runId: 'r1', pauseId, problems: ['output: tempC: Required'], applied: false });
    expect(await refused).toEqual({ ok: false, problems: ['output: tempC: Required'], message: 'The app refused the decision' });
    expect(pauses.has(pauseId)).toBe(true);
    // The decision comes before the app waits again: the next wait gets it at once.
    const applied = steps.command({ type: 'pause-decision', runId: 'r1', pauseId, decision: { action: 'continue' } });
    expect(await steps.wait(run, pauseId)).toEqual({ decision: { action: 'continue' } });
    steps.ack(run, { runId: 'r1', pauseId, problems: [], applied: true });
    expect(await applied).toEqual({ ok: true });
    expect(pauses.has(pauseId)).toBe(false);
  });

  it('answers a wait with no decision after the hold, so the app asks again', async () => {
    const { steps } = hub(20);
    const run = steps.authorize('r1', steps.open('r1', { kind: 'step' }));
    const { pauseId } = steps.hook(run, toolHook('r1')) as { pauseId: string };
    expect(await steps.wait(run, pauseId)).toEqual({ waiting: true });
  });

  it('Stop tells every waiting pause and every later hook; a mode change applies to the next hook', async () => {
    const { steps, pauses } = hub(5_000);
    const run = steps.authorize('r1', steps.open('r1', { kind: 'step' }));
    expect(await steps.command({ type: 'set-mode', runId: 'r1', mode: { kind: 'run' } })).toEqual({ ok: true });
    expect(steps.hook(run, toolHook('r1'))).toEqual({ decision: { action: 'continue' } });
    await steps.command({ type: 'set-mode', runId: 'r1', mode: { kind: 'step' } });
    const { pauseId } = steps.hook(run, toolHook('r1')) as { pauseId: string };
    const waiting = steps.wait(run, pauseId);
    expect(await steps.command({ type: 'stop', runId: 'r1' })).toEqual({ ok: true });
    expect(await waiting).toEqual({ stopped: 'The run was stopped by the user.' });
    expect(pauses.size).toBe(0);
    expect(steps.hook(run, toolHook('r1'))).toEqual({ stopped: 'The run was stopped by the user.' });
  });

  it('refuses commands for runs and pauses it does not hold, by name', async () => {
    const { steps } = hub();
    steps.open('r1', { kind: 'step' });
    expect(await steps.command({ type: 'stop', runId: 'r9' })).toMatchObject({ ok: false, message: expect.stringContaining('r9') });
    expect(await steps.command({ type: 'pause-decision', runId: 'r1', pauseId: 'p9', decision: { action: 'continue' } })).toMatchObject({ ok: false, message: expect.stringContaining('p9') });
  });
});
