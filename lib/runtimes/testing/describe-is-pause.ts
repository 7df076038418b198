/**
 * A flavor's cheap pause test against its reader, on every span its framework recorded: the
 * classification tells a pause by `LoopFlavor.isPause` (asked of every span, without reading the
 * pause), the call reader reads it by `pauseOf` (lib/runtimes/genai-loop/loop-flavor.ts). The two
 * must agree span by span, and the fixtures must hold pauses for the agreement to mean anything.
 */
import { describe, expect, it } from 'vitest';
import type { LoopFlavor } from '../genai-loop/loop-flavor';
import { frameworkFixtureCases, loadFrameworkFixture } from './framework-fixtures';

/** Registers the tests of one flavor, over its folder's recorded fixtures (lib/runtimes/<runtime>/__fixtures__/). */
export function describeIsPause(options: { runtime: string; flavor: LoopFlavor }): void {
  const { runtime, flavor } = options;
  describe(`${flavor.title}: a pause told without reading it`, () => {
    const cases = frameworkFixtureCases(runtime);

    it.each(cases)('%s: isPause says what pauseOf finds, span by span', async (fixtureCase) => {
      for (const span of await loadFrameworkFixture(runtime, fixtureCase)) {
        expect(flavor.isPause?.(span), `${span.name} ${span.spanId}`).toBe(flavor.pauseOf?.(span) !== undefined);
      }
    });

    it('the fixtures hold pauses to tell', async () => {
      const spans = (await Promise.all(cases.map((fixtureCase) => loadFrameworkFixture(runtime, fixtureCase)))).flat();
      expect(spans.filter((span) => flavor.isPause?.(span)).length).toBeGreaterThan(0);
    });
  });
}
