import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifySpan } from '../runtimes/classify-span';
import { loadTraceFile } from '../store/load-trace-file';
import { formatMillis, spanTimeline } from './span-timeline';
import { buildSpanTree } from './span-tree';

const timelineOf = async (file: string) => spanTimeline(buildSpanTree(await loadTraceFile(path.join(process.cwd(), file)), classifySpan));

describe('spanTimeline', () => {
  it('places every span of a real run on one axis, parents before children, bars inside it', async () => {
    const timeline = await timelineOf('traces/plain-tool-round.json');
    expect(timeline.rows.length).toBe(6);
    expect(timeline.rows[0].node.depth).toBe(0);
    expect(timeline.rows[0].left).toBe(0);
    for (const row of timeline.rows) {
      expect(row.left).toBeGreaterThanOrEqual(0);
      expect(row.left + row.width).toBeLessThanOrEqual(1.0001);
    }
    expect(timeline.ticks[0]).toEqual({ at: 0, ms: 0 });
    expect(timeline.ticks.length).toBeGreaterThanOrEqual(3);
  });

  it('draws the two parallel tool calls of one turn overlapping in time', async () => {
    const timeline = await timelineOf('traces/plain-tool-round.json');
    const tools = timeline.rows.filter((row) => row.node.role === 'tool');
    expect(tools.map((row) => row.node.label).sort()).toEqual(['convertTemperature', 'getWeather']);
    const [a, b] = tools;
    // Started in one turn: each starts before the other's end (or at the same instant).
    expect(a.left).toBeLessThanOrEqual(b.left + b.width);
    expect(b.left).toBeLessThanOrEqual(a.left + a.width);
  });

  it('is empty for no spans, and formats durations for labels', () => {
    expect(spanTimeline([])).toEqual({ rows: [], totalMs: 0, ticks: [] });
    expect(formatMillis(0.42)).toBe('0.4 ms');
    expect(formatMillis(12.4)).toBe('12 ms');
    expect(formatMillis(1250)).toBe('1.25 s');
  });
});
