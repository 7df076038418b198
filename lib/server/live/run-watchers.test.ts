import { describe, expect, it, vi } from 'vitest';
import { RunWatchers } from './run-watchers';

describe('RunWatchers', () => {
  it('reports a run abandoned only after its last watcher left and the grace period passed', () => {
    vi.useFakeTimers();
    try {
      const abandoned: string[] = [];
      const watchers = new RunWatchers({ graceMs: 1_000, onAbandoned: (runId) => abandoned.push(runId) });
      const first = watchers.watch('run-1');
      const second = watchers.watch('run-1');
      first();
      vi.advanceTimersByTime(5_000);
      expect(abandoned).toEqual([]);
      second();
      vi.advanceTimersByTime(999);
      expect(abandoned).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(abandoned).toEqual(['run-1']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page that comes back within the grace period keeps the run', () => {
    vi.useFakeTimers();
    try {
      const abandoned: string[] = [];
      const watchers = new RunWatchers({ graceMs: 1_000, onAbandoned: (runId) => abandoned.push(runId) });
      watchers.watch('run-1')();
      vi.advanceTimersByTime(500);
      const again = watchers.watch('run-1');
      vi.advanceTimersByTime(5_000);
      expect(abandoned).toEqual([]);
      expect(watchers.watching('run-1')).toBe(1);
      again();
      again(); // unregistering twice counts once
      vi.advanceTimersByTime(1_000);
      expect(abandoned).toEqual(['run-1']);
    } finally {
      vi.useRealTimers();
    }
  });
});
