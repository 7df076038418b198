import { describe, expect, it } from 'vitest';
import { RunnerSupervisor } from './runner-supervisor';
import { startRunners } from './start-runners';

/** A registry that lists what the test attaches, and tells its listeners. */
function fakeRegistry() {
  const listeners = new Set<() => void>();
  const runtimes: { id: string }[] = [];
  return {
    runtimes: () => runtimes,
    onChange(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attach(id: string) {
      runtimes.push({ id });
      for (const listener of [...listeners]) listener();
    },
  };
}

/** A supervisor that records how it was started. */
function fakeSupervisor() {
  const calls: string[] = [];
  let pending: Promise<unknown> | undefined;
  return {
    calls,
    start: () => calls.push('start'),
    startAfter(signal: Promise<unknown>) {
      calls.push('startAfter');
      pending = signal.then(() => calls.push('start'));
    },
    settled: () => pending,
  };
}

type Context = Parameters<typeof startRunners>[0];

describe('startRunners', () => {
  it('starts the runners at once when the server attaches no app of its own', () => {
    const supervisor = fakeSupervisor();
    startRunners({ supervisor, attachment: { registry: fakeRegistry() } } as unknown as Context);
    expect(supervisor.calls).toEqual(['start']);
  });

  it('with an app to start, waits until the app attached', async () => {
    const supervisor = fakeSupervisor();
    const registry = fakeRegistry();
    startRunners({ supervisor, attachment: { registry, app: {} } } as unknown as Context);
    expect(supervisor.calls).toEqual(['startAfter']);
    registry.attach('app-1');
    await supervisor.settled();
    expect(supervisor.calls).toEqual(['startAfter', 'start']);
  });
});

describe('RunnerSupervisor.startAfter', () => {
  it('spawns no runner while it waits, and a run that asks for one starts them and runs', async () => {
    const supervisor = new RunnerSupervisor({ projectDir: process.cwd(), toolsDir: `${process.cwd()}/tools`, toolTimeoutMs: 10_000, heartbeatTimeoutMs: 5_000, memoryLimitMb: 512, watchTools: false, maxRunners: 1 });
    try {
      supervisor.startAfter(new Promise(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(supervisor.status.state).toBe('stopped');
      expect(supervisor.status.runners ?? []).toEqual([]);
      const result = await supervisor.generate({ runId: 'run-1', scenario: 'plain-tool-round' });
      expect(result.failure).toBeUndefined();
      expect(result.outcome?.finishReason).toBe('stop');
    } finally {
      await supervisor.stop();
    }
  });
});
