import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAction, readReflectionActions } from './reflection-actions';

/**
 * `GET /api/actions` of the genkit Go 1.12 and Python 0.12 test apps (recorded in
 * lib/runtimes/genkit-{go,python}/__fixtures__/attach-reflection.json) and a genkit JS 1.42 shape,
 * read into `{key, name, type, inputSchema, outputSchema}`.
 */
const recorded = (runtime: 'go' | 'python') => JSON.parse(readFileSync(path.join(process.cwd(), 'lib', 'runtimes', `genkit-${runtime}`, '__fixtures__', 'attach-reflection.json'), 'utf8')).actions as Record<string, unknown>;
const KEYS = ['/flow/bookTrip', '/flow/planTrip', '/tool.v2/bookHotel', '/tool.v2/convertTemperature', '/tool.v2/getWeather', '/tool.v2/writeMarker', '/model/app/scripted', '/util/generate'];

describe('readReflectionActions', () => {
  for (const runtime of ['go', 'python'] as const) {
    it(`genkit ${runtime}: tool.v2 keys are tools with their own output schema; flows, model, util typed by key`, () => {
      const actions = readReflectionActions(recorded(runtime));
      expect(actions.map((action) => action.key)).toEqual(KEYS);
      expect(actions.map((action) => action.type)).toEqual(['flow', 'flow', 'tool', 'tool', 'tool', 'tool', 'model', 'util']);
      const weather = actions.find((action) => action.name === 'getWeather')!;
      // Not the multipart envelope {content, metadata, output}: the tool's own Weather.
      expect(weather.outputSchema).toMatchObject({ properties: { celsius: { type: 'number' }, city: { type: 'string' }, conditions: { type: 'string' } } });
      expect(JSON.stringify(weather.outputSchema)).not.toContain('"content"');
      expect(weather.inputSchema).toMatchObject({ properties: { city: { type: 'string', description: 'The city to look up' } }, required: ['city'] });
      expect(findAction(actions, 'planTrip')?.key).toBe('/flow/planTrip');
      expect(findAction(actions, 'getWeather')?.key).toBe('/tool.v2/getWeather');
      expect(findAction(actions, '/tool.v2/bookHotel')?.name).toBe('bookHotel');
    });
  }

  it('genkit Python: pydantic schemas are kept whole ($defs / $ref for the form to resolve)', () => {
    const actions = readReflectionActions(recorded('python'));
    expect(actions.find((action) => action.key === '/flow/planTrip')?.inputSchema).toMatchObject({ title: 'TripInput', properties: { city: { title: 'City', type: 'string' } } });
    expect(JSON.stringify(actions.find((action) => action.key === '/util/generate')?.inputSchema)).toContain('$ref');
  });

  it('genkit JS: a tool listed as /tool/x and as its /tool.v2/x wrapper is one tool, by its /tool/ key', () => {
    const tool = { name: 'getWeather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { tempC: { type: 'number' } } } };
    const actions = readReflectionActions({
      '/tool/getWeather': { key: '/tool/getWeather', ...tool, metadata: { type: 'tool' } },
      '/tool.v2/getWeather': { key: '/tool.v2/getWeather', ...tool, outputSchema: { type: 'object', properties: { output: {} } }, metadata: { type: 'tool.v2' } },
      '/tool.v2/pickSeat': { key: '/tool.v2/pickSeat', name: 'pickSeat', metadata: 'not an object' },
    });
    expect(actions.map((action) => [action.key, action.type])).toEqual([['/tool.v2/pickSeat', 'tool'], ['/tool/getWeather', 'tool']]);
    expect(findAction(actions, 'getWeather')?.outputSchema).toEqual(tool.outputSchema);
  });
});
