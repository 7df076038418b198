import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../app-context-ports';

/**
 * Next's start hook (instrumentation.ts) under the two ways the server starts: through
 * scripts/start.js, which made the context and started the runners before Next loaded — the hook
 * then loads nothing of lib/server's services (≈ 60 ms of the server's thread on the way to the
 * first page and to attaching the app) — or through Next alone, where it makes the context and
 * starts the runners itself.
 */
const KEY = Symbol.for('loopscope.app-context');
const loaded: string[] = [];
const started: unknown[] = [];
const made = { made: 'by the hook' } as unknown as AppContext;

const holder = globalThis as unknown as Record<symbol, AppContext | undefined>;
const saved = { runtime: process.env.NEXT_RUNTIME, context: holder[KEY] };

beforeEach(() => {
  loaded.length = 0;
  started.length = 0;
  process.env.NEXT_RUNTIME = 'nodejs';
  // Fresh modules for each test: an import the hook makes is seen as the factory running.
  vi.resetModules();
  vi.doMock('../app-context', () => {
    loaded.push('app-context');
    return { getAppContext: () => made };
  });
  vi.doMock('./start-runners', () => {
    loaded.push('start-runners');
    return { startRunners: (context: unknown) => started.push(context) };
  });
});
afterEach(() => {
  if (saved.runtime === undefined) delete process.env.NEXT_RUNTIME;
  else process.env.NEXT_RUNTIME = saved.runtime;
  holder[KEY] = saved.context;
});

describe("instrumentation.ts's register", () => {
  it('under scripts/start.js (the context exists): loads nothing of the services and starts nothing', async () => {
    holder[KEY] = { made: 'by scripts/start.js' } as unknown as AppContext;
    const { register } = await import('../../../instrumentation');
    await register();
    expect(loaded).toEqual([]);
    expect(started).toEqual([]);
  });

  it('under Next alone (no context yet): makes it and starts the runners with it', async () => {
    holder[KEY] = undefined;
    const { register } = await import('../../../instrumentation');
    await register();
    expect(loaded.sort()).toEqual(['app-context', 'start-runners']);
    expect(started).toEqual([made]);
  });
});
