import { describe, expect, it } from 'vitest';
import { RunnerPoolStatusSchema, runnerPoolStatus, type RunnerStatus } from './runner-status';

const STATUS: RunnerStatus = {
  state: 'ready',
  pid: 41,
  toolsByRuntime: { 'genkit-js': [{ name: 'getWeather', description: 'Weather.', file: 'weather.ts' }], 'ai-sdk': [] },
  models: ['scripted/weather-loop'],
  scenarios: [{ name: 'weather-loop', prompt: 'Weather?', tools: ['getWeather'] } as RunnerStatus['scenarios'][number]],
  problems: [{ file: 'broken.ts', message: 'SyntaxError' }],
  lastRestartReason: 'tools/weather.ts changed',
  restarts: 2,
  runners: [{ pid: 41, state: 'busy', runIds: ['run-1'] }],
  capacity: 4,
  waiting: 0,
  catalogVersion: 3,
};

describe('runnerPoolStatus', () => {
  it('keeps the pool and leaves out the catalog, and the live event schema takes what it gives', () => {
    const pool = runnerPoolStatus(STATUS);
    expect(pool).toEqual({ state: 'ready', pid: 41, lastRestartReason: 'tools/weather.ts changed', restarts: 2, runners: [{ pid: 41, state: 'busy', runIds: ['run-1'] }], capacity: 4, waiting: 0, catalogVersion: 3 });
    expect(RunnerPoolStatusSchema.parse(pool)).toEqual(pool);
    // The schema strips a catalog sent anyway (zod objects drop unknown keys).
    expect(RunnerPoolStatusSchema.parse(STATUS)).toEqual(pool);
  });
});
