import { describe, expect, it } from 'vitest';
import { frameworkFixtureCases, loadFrameworkFixture } from '../../testing/framework-fixtures';
import { pydanticAiFlavor } from './index';

/**
 * The classification tells a Pydantic AI pause (a tool that deferred) by its deferral's name,
 * without parsing the deferral's metadata (`isPause`, asked of every span); the call reader reads
 * the pause (`pauseOf`). The two agree on every recorded span.
 */
describe('Pydantic AI: a pause told without reading it', () => {
  const cases = frameworkFixtureCases('pydantic-ai');

  it.each(cases)('%s: isPause says what pauseOf finds, span by span', async (fixtureCase) => {
    for (const span of await loadFrameworkFixture('pydantic-ai', fixtureCase)) {
      expect(pydanticAiFlavor.isPause?.(span), `${span.name} ${span.spanId}`).toBe(pydanticAiFlavor.pauseOf?.(span) !== undefined);
    }
  });

  it('the fixtures hold pauses to tell', async () => {
    const spans = (await Promise.all(cases.map((fixtureCase) => loadFrameworkFixture('pydantic-ai', fixtureCase)))).flat();
    expect(spans.filter((span) => pydanticAiFlavor.isPause?.(span)).length).toBeGreaterThan(0);
  });
});
