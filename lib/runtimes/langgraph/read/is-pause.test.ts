import { describe, expect, it } from 'vitest';
import { frameworkFixtureCases, loadFrameworkFixture } from '../../testing/framework-fixtures';
import { langGraphFlavor } from './index';

/**
 * The classification tells a LangGraph pause without parsing its `GraphInterrupt` repr
 * (`isPause`, asked of every span: each span up to the run records the tool's interrupt); the
 * call reader reads the pause (`pauseOf`). The two agree on every recorded span.
 */
describe('LangGraph: a pause told without reading it', () => {
  const cases = frameworkFixtureCases('langgraph');

  it.each(cases)('%s: isPause says what pauseOf finds, span by span', async (fixtureCase) => {
    for (const span of await loadFrameworkFixture('langgraph', fixtureCase)) {
      expect(langGraphFlavor.isPause?.(span), `${span.name} ${span.spanId}`).toBe(langGraphFlavor.pauseOf?.(span) !== undefined);
    }
  });

  it('the fixtures hold pauses to tell', async () => {
    const spans = (await Promise.all(cases.map((fixtureCase) => loadFrameworkFixture('langgraph', fixtureCase)))).flat();
    expect(spans.filter((span) => langGraphFlavor.isPause?.(span)).length).toBeGreaterThan(0);
  });
});
