import { flattenSpanTree, type SpanTreeNode } from './span-tree';

/** One bar of the timeline: a span placed on the time axis of its whole view. */
export interface TimelineRow {
  node: SpanTreeNode;
  /** Where the bar starts, as a fraction of the axis (0–1). */
  left: number;
  /** How long it is, as a fraction of the axis; at least a sliver, so an instant span still shows. */
  width: number;
  /** Milliseconds from the first span's start. */
  offsetMs: number;
  /** Still running: drawn to the end of the axis. */
  open: boolean;
}

export interface SpanTimeline {
  rows: TimelineRow[];
  /** Milliseconds the axis spans (first start to last end). */
  totalMs: number;
  /** Axis labels: fractions of the axis with their time from the start, a few round numbers. */
  ticks: { at: number; ms: number }[];
}

const MIN_WIDTH = 0.004;

/**
 * A waterfall of the span forest: rows in tree order (a parent above its children, children
 * by start time), each bar placed on one time axis from the first start to the last end, so
 * parallel calls show as overlapping bars side by side in time. A running span reaches the
 * end of the axis. Pure.
 */
export function spanTimeline(forest: readonly SpanTreeNode[]): SpanTimeline {
  const nodes = flattenSpanTree(forest);
  if (nodes.length === 0) return { rows: [], totalMs: 0, ticks: [] };
  const start = Math.min(...nodes.map((node) => node.startMs));
  const end = Math.max(...nodes.map((node) => node.startMs + (node.durationMs ?? 0)));
  const totalMs = Math.max(end - start, 0.001);
  const rows = nodes.map((node) => {
    const offsetMs = node.startMs - start;
    const open = node.durationMs === undefined;
    const length = open ? totalMs - offsetMs : (node.durationMs ?? 0);
    const left = Math.min(offsetMs / totalMs, 1 - MIN_WIDTH);
    return { node, left, width: Math.max(length / totalMs, MIN_WIDTH), offsetMs, open };
  });
  return { rows, totalMs, ticks: ticksFor(totalMs) };
}

/** About five ticks at a round step (1, 2 or 5 × a power of ten milliseconds). */
function ticksFor(totalMs: number): { at: number; ms: number }[] {
  const rough = totalMs / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: { at: number; ms: number }[] = [];
  for (let ms = 0; ms <= totalMs + step / 1000; ms += step) ticks.push({ at: ms / totalMs, ms });
  return ticks;
}

/** A duration for a timeline label: `0.4 ms`, `12 ms`, `1.25 s`. */
export function formatMillis(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}
