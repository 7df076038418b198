import { describe, expect, it } from 'vitest';
import { compareMirroredScenario } from './compare-service';
import { useRunnerContext } from '../testing/runner-context';

/** A genkit Go scenario and the genkit JS one it mirrors, both run for real to the end and compared. */
const runner = useRunnerContext();

describe('comparing a scenario on genkit JS and genkit Go', () => {
  it('restart-after-approval: same outcome and answers; the interrupted tool span, and the resume’s wire differ', async () => {
    const comparison = await compareMirroredScenario(runner.context, 'go-restart-after-approval');
    expect(comparison.a).toMatchObject({ label: 'restart-after-approval', runtimes: ['genkit-js'], summary: { generates: 2, interrupts: 1, restarts: 1, finishReason: 'stop' } });
    expect(comparison.b).toMatchObject({ label: 'go-restart-after-approval', runtimes: ['genkit-go'], summary: { generates: 2, interrupts: 1, restarts: 1, finishReason: 'stop' } });
    expect(comparison.same[0]).toMatch(/^outcomes: 2 call\(s\), the same status, finish reason, text, interrupts and answers/);
    expect(comparison.differences.filter((difference) => difference.aspect === 'outcome')).toEqual([]);
    expect(comparison.differences).toContainEqual({ aspect: 'spans', where: 'tool transferMoney → error', a: '0×', b: '1×' });
    expect(comparison.a.traceIds).toHaveLength(2);
    expect(comparison.b.traceIds).toHaveLength(2);
  }, 320_000);

  it('names a scenario that is missing or mirrors nothing', async () => {
    await expect(compareMirroredScenario(runner.context, 'go-nothing')).rejects.toThrow(/No scenario named "go-nothing"/);
    await expect(compareMirroredScenario(runner.context, 'go-restart-with-input')).rejects.toThrow(/mirrors no scenario of another runtime/);
  });
});
