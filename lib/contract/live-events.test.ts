import { describe, expect, it } from 'vitest';
import { ApiErrorBodySchema } from './api-error';
import { LIVE_EVENT_TYPES, LiveEventSchema } from './live-events';
import { RunSessionSchema } from './run-session';

const RUN = {
  runId: 'r1',
  label: 'resume of scripted/restart-after-approval',
  status: 'running',
  traceIds: [],
  startedAt: 1,
  interrupts: [],
  resumes: 0,
  mode: { kind: 'run' },
  pauses: [],
  version: 0,
  resumeOf: { file: 'restart-after-approval.json' },
};

describe('live events', () => {
  it('accept a run without a scenario: the display label is its own field', () => {
    expect(RunSessionSchema.parse(RUN)).toEqual(RUN);
    expect(LiveEventSchema.parse({ type: 'run', run: { ...RUN, label: 'plain-tool-round', scenario: 'plain-tool-round' } })).toMatchObject({ run: { scenario: 'plain-tool-round' } });
  });

  it('refuse a run without a label', () => {
    const { label: _label, ...unlabelled } = RUN;
    const result = RunSessionSchema.safeParse(unlabelled);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['label']);
  });

  it('carry a run’s graph with a version, and refuse a negative or fractional version', () => {
    const graph = { summary: {}, generates: [], nodes: [], edges: [] };
    expect(LiveEventSchema.parse({ type: 'graph', runId: 'r1', version: 3, graph })).toEqual({ type: 'graph', runId: 'r1', version: 3, graph });
    expect(LiveEventSchema.safeParse({ type: 'graph', runId: 'r1', version: -1, graph }).success).toBe(false);
    expect(LiveEventSchema.safeParse({ type: 'graph', runId: 'r1', version: 1.5, graph }).success).toBe(false);
  });

  it('refuse an event type the stream does not send, and list every type it sends', () => {
    expect(LiveEventSchema.safeParse({ type: 'hello' }).success).toBe(false);
    const types = LiveEventSchema.options.map((option) => option.shape.type.value).sort();
    expect([...LIVE_EVENT_TYPES].sort()).toEqual(types);
  });

  it('the API error body has a known code and a message', () => {
    expect(ApiErrorBodySchema.parse({ error: { code: 'NOT_FOUND', message: 'No trace x.' } })).toEqual({ error: { code: 'NOT_FOUND', message: 'No trace x.' } });
    expect(ApiErrorBodySchema.safeParse({ error: { code: 'TEAPOT', message: 'x' } }).success).toBe(false);
  });
});
