import { describe, expect, it } from 'vitest';
import { RunRegistry, type RunSession } from './run-registry';
import type { GenerateResult } from '../../runner/run-requests';
import { thrownLoopscopeError } from '../../spans/testing/thrown-error';

function registry() {
  const changes: RunSession[] = [];
  return { runs: new RunRegistry((session) => changes.push(session)), changes };
}

const INTERRUPT = { toolRequest: { name: 'askUser', ref: 'seat-1', input: { question: 'Window or aisle?' } }, metadata: { interrupt: true } };
const HISTORY = [
  { role: 'user', content: [{ text: 'Book a seat.' }] },
  { role: 'model', content: [INTERRUPT] },
];

const interrupted: GenerateResult = {
  traceIds: ['trace-1'],
  outcome: { finishReason: 'interrupted', text: '', interrupts: [INTERRUPT], messages: HISTORY },
};
const finished: GenerateResult = {
  traceIds: ['trace-2'],
  outcome: { finishReason: 'stop', text: 'Booked.', interrupts: [], messages: [...HISTORY, { role: 'model', content: [{ text: 'Booked.' }] }] },
};

describe('RunRegistry: Stop', () => {
  const stoppedFailure: GenerateResult = { traceIds: ['trace-3'], failure: { message: 'The run was stopped by the user.', status: 'CANCELLED' } };

  it('a run asked to stop whose call then fails is stopped, not failed; the stop is forgotten once it ended', () => {
    const { runs } = registry();
    const { runId } = runs.create({ scenario: 'tool-hangs' });
    runs.markStopping(runId);
    expect(runs.complete(runId, stoppedFailure)).toMatchObject({ status: 'stopped', failure: { status: 'CANCELLED' }, finishReason: 'error' });
    // Another run that fails is failed.
    const other = runs.create({ scenario: 'tool-throws' });
    expect(runs.complete(other.runId, stoppedFailure)?.status).toBe('failed');
  });

  it('a call that finished as the stop arrived stays finished; a stop that did not reach the run changes nothing', () => {
    const { runs } = registry();
    const finishing = runs.create({ scenario: 'respond-to-question' });
    runs.markStopping(finishing.runId);
    expect(runs.complete(finishing.runId, finished)?.status).toBe('finished');
    const refused = runs.create({ scenario: 'tool-throws' });
    runs.markStopping(refused.runId);
    runs.markStopping(refused.runId, false);
    expect(runs.complete(refused.runId, stoppedFailure)?.status).toBe('failed');
  });

  it('whenEnded: the run once it is no longer running, or as it is at the timeout', async () => {
    const { runs } = registry();
    const { runId } = runs.create({ scenario: 'tool-hangs' });
    const ended = runs.whenEnded(runId, 5_000);
    runs.markStopping(runId);
    runs.complete(runId, stoppedFailure);
    expect(await ended).toMatchObject({ runId, status: 'stopped' });
    const still = runs.create({ scenario: 'slow-tool' });
    expect(await runs.whenEnded(still.runId, 10)).toMatchObject({ status: 'running' });
    expect(await runs.whenEnded('no-such-run', 10)).toBeUndefined();
  });
});

describe('RunRegistry', () => {
  it('creates a running run and reports it', () => {
    const { runs, changes } = registry();
    const run = runs.create({ scenario: 'respond-to-question' });
    expect(run).toMatchObject({ scenario: 'respond-to-question', status: 'running', traceIds: [], interrupts: [], resumes: 0 });
    expect(run.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(runs.get(run.runId)).toEqual(run);
    expect(changes).toEqual([run]);
  });

  it('gives every run its own id and lists the newest first', () => {
    const { runs } = registry();
    const a = runs.create({ scenario: 'a' });
    const b = runs.create({ scenario: 'b' });
    expect(a.runId).not.toBe(b.runId);
    expect(runs.list().map((run) => run.scenario)).toEqual(['b', 'a']);
  });

  it('an interrupted outcome makes the run interrupted with its interrupts (a pause, not a failure)', () => {
    const { runs, changes } = registry();
    const { runId } = runs.create({ scenario: 'respond-to-question' });
    const session = runs.complete(runId, interrupted);
    expect(session).toMatchObject({ status: 'interrupted', finishReason: 'interrupted', interrupts: [INTERRUPT], traceIds: ['trace-1'] });
    expect(session?.failure).toBeUndefined();
    expect(session?.endedAt).toBeTypeOf('number');
    expect(runs.get(runId)).toEqual(session);
    expect(changes.at(-1)).toEqual(session);
  });

  it('an AI SDK call that stopped with calls waiting (finish reason tool-calls) is interrupted; one that stopped at a step limit is finished', () => {
    const { runs } = registry();
    const pending = { kind: 'approval', toolName: 'transferMoney', toolCallId: 'transfer-1', input: { to: 'Bob', amountUsd: 500 }, approvalId: 'approval-1' };
    const waiting = runs.create({ scenario: 'ai-sdk-approval-approved' });
    expect(runs.complete(waiting.runId, { traceIds: ['t-1'], outcome: { finishReason: 'tool-calls', text: '', interrupts: [pending], messages: [] } })).toMatchObject({
      status: 'interrupted',
      finishReason: 'tool-calls',
      interrupts: [pending],
    });
    expect(runs.resumeInput(waiting.runId, { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1' }] }).resume).toEqual({ approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1' }] });
    const limited = runs.create({ scenario: 'ai-sdk-step-limit' });
    expect(runs.complete(limited.runId, { traceIds: ['t-2'], outcome: { finishReason: 'tool-calls', text: '', interrupts: [], messages: [] } })).toMatchObject({ status: 'finished', finishReason: 'tool-calls' });
  });

  it('resumeInput on an interrupted run returns its history and sets it running with one more resume', () => {
    const { runs, changes } = registry();
    const { runId } = runs.create({ scenario: 'respond-to-question' });
    runs.complete(runId, interrupted);
    const resume = { respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }] };
    const input = runs.resumeInput(runId, resume);
    expect(input).toEqual({ scenario: 'respond-to-question', messages: HISTORY, resume });
    const session = runs.get(runId)!;
    expect(session).toMatchObject({ status: 'running', resumes: 1, interrupts: [] });
    expect(session.endedAt).toBeUndefined();
    expect(changes.at(-1)).toEqual(session);

    // The resume's own trace is added after the first one.
    const done = runs.complete(runId, finished);
    expect(done).toMatchObject({ status: 'finished', finishReason: 'stop', text: 'Booked.', traceIds: ['trace-1', 'trace-2'], resumes: 1 });
  });

  it('a second resumeInput while the resume runs is refused (no double resume)', () => {
    const { runs } = registry();
    const { runId } = runs.create({ scenario: 's' });
    runs.complete(runId, interrupted);
    runs.resumeInput(runId, {});
    expect(thrownLoopscopeError(() => runs.resumeInput(runId, {})).code).toBe('FAILED_PRECONDITION');
    expect(runs.get(runId)?.resumes).toBe(1);
  });

  it('resumeInput on a finished run is FAILED_PRECONDITION (409) naming the status', () => {
    const { runs } = registry();
    const { runId } = runs.create({ scenario: 'plain-tool-round' });
    runs.complete(runId, finished);
    const error = thrownLoopscopeError(() => runs.resumeInput(runId, {}));
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.httpStatus).toBe(409);
    expect(error.message).toContain('finished');
    expect(runs.get(runId)).toMatchObject({ status: 'finished', resumes: 0 });
  });

  it('resumeInput on a running run is FAILED_PRECONDITION', () => {
    const { runs } = registry();
    const { runId } = runs.create({ scenario: 's' });
    expect(thrownLoopscopeError(() => runs.resumeInput(runId, {})).code).toBe('FAILED_PRECONDITION');
  });

  it('resumeInput on an unknown run is NOT_FOUND (404)', () => {
    const { runs } = registry();
    const error = thrownLoopscopeError(() => runs.resumeInput('no-such-run', {}));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.httpStatus).toBe(404);
    expect(error.message).toContain('no-such-run');
  });

  it('a failure result makes the run failed with the message', () => {
    const { runs, changes } = registry();
    const { runId } = runs.create({ scenario: 'tool-throws' });
    const session = runs.complete(runId, { traceIds: ['trace-9'], failure: { message: 'Tool lookupOrder failed: boom', status: 'INTERNAL' } });
    expect(session).toMatchObject({ status: 'failed', finishReason: 'error', traceIds: ['trace-9'] });
    expect(session?.failure?.message).toBe('Tool lookupOrder failed: boom');
    expect(changes.at(-1)?.status).toBe('failed');
    expect(thrownLoopscopeError(() => runs.resumeInput(runId, {})).code).toBe('FAILED_PRECONDITION');
  });

  it('bounds what every page gets in run events: a label naming a recorded model, a failure message, a fork (issue 36)', () => {
    const { runs, changes } = registry();
    const model = 'm'.repeat(1_000_000);
    const { runId } = runs.create({ label: `resume of ${model}`, resumeOf: { traceIds: ['0af7651916cd43dd8448eb211c80319c'] } });
    runs.complete(runId, { traceIds: ['trace-9'], failure: { message: `Tool ${'t'.repeat(5_000_000)} failed` } });
    const fork = runs.create({ label: 'replay of x.json', replay: { source: { file: 'x.json' }, liveTools: false, mode: 'strict', fork: `lookup answers ${'"o"'.repeat(400_000)}` } });
    for (const change of changes) expect(JSON.stringify(change).length, change.label.slice(0, 20)).toBeLessThan(3_000);
    expect(changes.at(0)?.label).toBe(`resume of ${'m'.repeat(190)}… [${model.length + 'resume of '.length} characters in all]`);
    expect(runs.get(runId)?.failure?.message).toMatch(/^Tool t+… \[5000012 characters in all\]$/);
    expect(fork.replay?.fork).toMatch(/… \[1200015 characters in all\]$/);
  });

  it('complete on an unknown run returns undefined and reports nothing', () => {
    const { runs, changes } = registry();
    expect(runs.complete('nope', finished)).toBeUndefined();
    expect(changes).toEqual([]);
  });

  it('addTrace adds each trace once, in order, and reports each change', () => {
    const { runs, changes } = registry();
    const { runId } = runs.create({ scenario: 's' });
    runs.addTrace(runId, 't1');
    runs.addTrace(runId, 't1');
    runs.addTrace(runId, 't2');
    runs.addTrace('unknown', 't3');
    expect(runs.get(runId)?.traceIds).toEqual(['t1', 't2']);
    expect(changes).toHaveLength(3);
    // A result naming a trace already added does not duplicate it.
    expect(runs.complete(runId, { traceIds: ['t2', 't3'], outcome: finished.outcome })?.traceIds).toEqual(['t1', 't2', 't3']);
  });

  it('calls onChange on every change with the current session, never a stale one', () => {
    const { runs, changes } = registry();
    const { runId } = runs.create({ scenario: 's' });
    runs.addTrace(runId, 'trace-1');
    runs.complete(runId, interrupted);
    runs.resumeInput(runId, {});
    runs.complete(runId, finished);
    expect(changes.map((session) => session.status)).toEqual(['running', 'running', 'interrupted', 'running', 'finished']);
    expect(changes.every((session) => session.runId === runId)).toBe(true);
    // Sessions are replaced, not mutated: an earlier report keeps its status.
    expect(changes[2].status).toBe('interrupted');
  });

  it('keeps at most 200 runs, forgetting the oldest', () => {
    const { runs } = registry();
    const first = runs.create({ scenario: 'first' });
    for (let index = 0; index < 200; index += 1) runs.create({ scenario: `run-${index}` });
    expect(runs.list()).toHaveLength(200);
    expect(runs.get(first.runId)).toBeUndefined();
    expect(thrownLoopscopeError(() => runs.resumeInput(first.runId, {})).code).toBe('NOT_FOUND');
  });
});
