import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolDeadlines } from './tool-deadlines';

/** A call that settles when the test says so. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

const timeout = (name: string) => () => new Error(`${name} did not finish`);

/** What a promise has done so far: 'pending', or its value or error message. */
function watch<T>(promise: Promise<T>): { state: () => string } {
  let state = 'pending';
  promise.then(
    (value) => (state = `resolved ${String(value)}`),
    (error: unknown) => (state = `rejected ${error instanceof Error ? error.message : String(error)}`),
  );
  return { state: () => state };
}

describe('ToolDeadlines', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('a call that settles in time settles as it did, and is forgotten', async () => {
    const deadlines = new ToolDeadlines(1_000);
    const ok = pending<string>();
    const bad = pending<string>();
    const first = watch(deadlines.run(() => ok.promise, timeout('a')));
    const second = watch(deadlines.run(() => bad.promise, timeout('b')));
    ok.resolve('out');
    bad.reject(new Error('the tool failed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(first.state()).toBe('resolved out');
    expect(second.state()).toBe('rejected the tool failed');
    expect(deadlines.size).toBe(0);
    // The timer still fires at the first call's deadline, and fails nothing.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(first.state()).toBe('resolved out');
  });

  it('each call fails at its own deadline, on one timer re-armed for the oldest call left', async () => {
    const deadlines = new ToolDeadlines(1_000);
    const a = watch(deadlines.run(() => pending<string>().promise, timeout('a')));
    await vi.advanceTimersByTimeAsync(400);
    const b = watch(deadlines.run(() => pending<string>().promise, timeout('b')));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(599);
    expect(a.state()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(a.state()).toBe('rejected a did not finish');
    expect(b.state()).toBe('pending');
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(399);
    expect(b.state()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(b.state()).toBe('rejected b did not finish');
    expect(deadlines.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a call that starts after the timer went quiet gets a timer again', async () => {
    const deadlines = new ToolDeadlines(500);
    const done = pending<number>();
    await deadlines.run(() => (done.resolve(1), done.promise), timeout('a'));
    await vi.advanceTimersByTimeAsync(500);
    expect(vi.getTimerCount()).toBe(0);
    const late = watch(deadlines.run(() => pending<number>().promise, timeout('late')));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(late.state()).toBe('rejected late did not finish');
  });
});

describe('ToolDeadlines.forLimit', () => {
  it('gives the runs of one limit one instance (one timer), another limit its own', () => {
    expect(ToolDeadlines.forLimit(30_000)).toBe(ToolDeadlines.forLimit(30_000));
    expect(ToolDeadlines.forLimit(30_000)).not.toBe(ToolDeadlines.forLimit(2_000));
  });
});

describe('ToolDeadlines in a process', () => {
  it('holds the process while a call runs, not after: the last call settled, the process exits at once', async () => {
    const { execFile } = await import('node:child_process');
    const script = [
      "const { ToolDeadlines } = await import('./lib/runner/tool-deadlines.ts');",
      'const deadlines = new ToolDeadlines(60_000);',
      // One call that settles, and one that waits on nothing: the timer must fail the second.
      "console.log(await deadlines.run(() => Promise.resolve('done'), () => new Error('late')));",
      "const short = new ToolDeadlines(300);",
      "await short.run(() => new Promise(() => {}), () => new Error('past the limit')).catch((error) => console.log(error.message));",
    ].join('\n');
    const started = Date.now();
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), timeout: 30_000 }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    expect(stdout).toBe('done\npast the limit\n');
    // Not the 60 s limit of the call that settled.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
