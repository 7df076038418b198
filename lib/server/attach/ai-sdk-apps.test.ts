/**
 * AiSdkApps without HTTP: the answer an app waits for (delivered to its held request, refused and
 * sent again, an app that stopped asking is no longer waited for), and which run a call that
 * carries an answer goes on as.
 */
import { describe, expect, it } from 'vitest';
import type { AiSdkStartRequest } from '../../contract/attach-ai-sdk';
import { RunRegistry } from '../services/run-registry';
import { AiSdkApps } from './ai-sdk-apps';
import { AttachedSteps } from './attached-steps';

const TRACE = 'a'.repeat(32);

function setUp() {
  const clock = { now: 1_000_000 };
  const runs = new RunRegistry(() => undefined);
  const steps = new AttachedSteps({ onPause: () => undefined, onPauseEnded: () => undefined, onTrace: () => undefined });
  const apps = new AiSdkApps({ runs, steps, holdMs: 20, now: () => clock.now });
  const start = (name: string, answers?: string): ReturnType<AiSdkApps['start']> => {
    const request: AiSdkStartRequest = { app: { name }, runtime: 'ai-sdk', operation: 'generateText', model: { provider: 'p', modelId: 'm' }, tools: [{ name: 'bookTrip', handedBack: false, needsApproval: true }], ...(answers ? { answers: { runId: answers } } : {}) };
    return apps.start(request);
  };
  /** A call of `name` that ends waiting for bookTrip's approval. */
  const interrupted = (name: string) => {
    const { runId, token } = start(name);
    const run = apps.authorize(runId, token);
    apps.end(run, { runId, traceIds: [TRACE], outcome: { finishReason: 'tool-calls', text: '', waiting: [{ kind: 'approval', toolName: 'bookTrip', toolCallId: 'book-1', input: {} }] } });
    return run;
  };
  return { clock, runs, apps, start, interrupted };
}

const APPROVE = { approve: [{ toolName: 'bookTrip', toolCallId: 'book-1' }], deny: [], respond: [] };

describe('AiSdkApps', () => {
  it('delivers the answer to the app’s held request; a refusal leaves it waiting, the next answer is taken', async () => {
    const { apps, interrupted } = setUp();
    const run = interrupted('app');
    const held = apps.waitForAnswer(run);
    expect(apps.waitingFor(TRACE)).toMatchObject({ runId: run.runId, appName: 'app' });
    const refused = apps.deliver({ runId: run.runId, answer: APPROVE });
    expect(await held).toEqual({ answer: APPROVE });
    apps.ackAnswer(run, ['no approval request book-1']);
    expect(await refused).toEqual(['no approval request book-1']);
    // Still waiting: the next answer reaches the next request.
    const taken = apps.deliver({ runId: run.runId, answer: APPROVE });
    expect(await apps.waitForAnswer(run)).toEqual({ answer: APPROVE });
    apps.ackAnswer(run, []);
    expect(await taken).toEqual([]);
    expect(apps.waitingFor(TRACE)).toBeUndefined();
  });

  it('forgets an app that stopped asking for its answer (it exited): the workbench answers as for any trace', async () => {
    const { clock, apps, interrupted } = setUp();
    const run = interrupted('app');
    expect(apps.waitingFor(TRACE)).toBeUndefined();
    expect(await apps.waitForAnswer(run)).toEqual({ waiting: true });
    clock.now += 9_000;
    expect(apps.waitingFor(TRACE)).toMatchObject({ runId: run.runId });
    clock.now += 2_000;
    expect(apps.waitingFor(TRACE)).toBeUndefined();
  });

  it('an end that says the app waits makes the run waited for at once, before the app’s first request', () => {
    const { apps, start } = setUp();
    const { runId, token } = start('app');
    apps.end(apps.authorize(runId, token), { runId, traceIds: [TRACE], outcome: { finishReason: 'tool-calls', text: '', waiting: [{ kind: 'approval', toolName: 'bookTrip', toolCallId: 'book-1', input: {} }] }, appWaits: true });
    expect(apps.waitingFor(TRACE)).toMatchObject({ runId, appName: 'app' });
  });

  it('a call that carries the answer goes on as the run it answers — only a run of the same app that is interrupted', () => {
    const { runs, start, interrupted } = setUp();
    const run = interrupted('app');
    const firstToken = run.token;
    expect(start('other app', run.runId).runId).not.toBe(run.runId);
    const goesOn = start('app', run.runId);
    expect(goesOn.runId).toBe(run.runId);
    // A new step token for the call that goes on.
    expect(goesOn.token).not.toBe(firstToken);
    expect(runs.get(run.runId)).toMatchObject({ status: 'running', resumes: 1 });
    // Running again: a second call with the same answer is a run of its own.
    expect(start('app', run.runId).runId).not.toBe(run.runId);
  });

  it('refuses a second end, and forgets a run that waits for nothing (its token dies)', () => {
    const { apps, start } = setUp();
    const { runId, token } = start('app');
    const run = apps.authorize(runId, token);
    apps.end(run, { runId, traceIds: [], outcome: { finishReason: 'stop', text: 'done', waiting: [] } });
    expect(() => apps.end(run, { runId, traceIds: [], failure: { message: 'again' } })).toThrow('already ended');
    expect(() => apps.authorize(runId, token)).toThrow(/No run .* is known here/);
  });
});
