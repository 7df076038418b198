import { describe, expect, it } from 'vitest';
import type { AttributeValue, Span } from '../../../spans/span';
import { buildSpanTree as buildTree, flattenSpanTree, type SpanTreeNode } from '../../../spans/span-tree';
import { attributesOf, buildSpan, exceptionEvent, generateAttributes, modelAttributes, spanTimes, toolAttributes } from '../../../spans/testing/build-span';
import { classifySpan } from '../../classify-span';

/** The span tree of genkit spans, as the page builds it: classified by the dialects. */
const buildSpanTree = (spans: readonly Span[]) => buildTree(spans, classifySpan);

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const OTHER_TRACE = '1bf7651916cd43dd8448eb211c80319d';

/** A hand-made span: times in milliseconds after a fixed epoch; `end: null` leaves it open. */
function span(
  spanId: string,
  options: {
    parent?: string;
    traceId?: string;
    name?: string;
    start?: number;
    end?: number | null;
    attributes?: Record<string, AttributeValue>;
    status?: Span['status'];
    events?: Span['events'];
  } = {},
): Span {
  return buildSpan({
    traceId: options.traceId ?? TRACE,
    spanId,
    parentSpanId: options.parent,
    name: options.name ?? spanId,
    ...spanTimes(options),
    attributes: options.attributes,
    events: options.events,
    status: options.status,
  });
}

const generate = generateAttributes();
const tool = toolAttributes;
const model = modelAttributes;
const interruptEvent = exceptionEvent({ type: 'ToolInterruptError', message: 'INTERRUPTED' });

const ids = (nodes: readonly SpanTreeNode[]) => nodes.map((node) => node.spanId);

describe('buildSpanTree', () => {
  it('nests children under parents and sorts them by start time, whatever the input order', () => {
    const tree = buildSpanTree([
      span('c3', { parent: 'r', start: 30 }),
      span('c1', { parent: 'r', start: 10 }),
      span('g1', { parent: 'c1', start: 12 }),
      span('r', { start: 0, end: 100, attributes: generate }),
      span('c2', { parent: 'r', start: 20 }),
    ]);
    expect(ids(tree)).toEqual(['r']);
    expect(ids(tree[0].children)).toEqual(['c1', 'c2', 'c3']);
    expect(ids(tree[0].children[0].children)).toEqual(['g1']);
    expect(tree[0].depth).toBe(0);
    expect(tree[0].children[0].depth).toBe(1);
    expect(tree[0].children[0].children[0].depth).toBe(2);
    expect(tree[0].durationMs).toBe(100);
    expect(tree[0]).toMatchObject({ role: 'generate', label: 'generate', outcome: 'ok', statusText: 'ok', orphan: false });
  });

  it('sorts by start time numerically, not as text (different digit counts)', () => {
    const early = span('early', { parent: 'r' });
    early.startTimeUnixNano = '999999999999999999';
    const late = span('late', { parent: 'r' });
    late.startTimeUnixNano = '1000000000000000000';
    const root = span('r');
    root.startTimeUnixNano = '1';
    expect(ids(buildSpanTree([late, root, early])[0].children)).toEqual(['early', 'late']);
  });

  it('makes a span whose parent is missing a root marked orphan; only roots are orphans', () => {
    const tree = buildSpanTree([
      span('r', { start: 0 }),
      span('lost', { parent: 'never-arrived', start: 5 }),
      span('lost-child', { parent: 'lost', start: 6 }),
    ]);
    expect(ids(tree)).toEqual(['r', 'lost']);
    expect(tree[0].orphan).toBe(false);
    expect(tree[1].orphan).toBe(true);
    expect(tree[1].children[0]).toMatchObject({ spanId: 'lost-child', orphan: false, depth: 1 });
    for (const node of flattenSpanTree(tree)) if (node.orphan) expect(node.depth).toBe(0);
  });

  it('orders roots by start time', () => {
    const tree = buildSpanTree([span('b', { start: 50, parent: 'gone' }), span('a', { start: 10 })]);
    expect(ids(tree)).toEqual(['a', 'b']);
  });

  it('an interrupted tool (genkit:metadata:interrupt) is paused, never failed', () => {
    const [root] = buildSpanTree([
      span('r', { attributes: generate, end: 100 }),
      span('t', {
        parent: 'r',
        start: 1,
        attributes: { ...tool('transferMoney'), 'genkit:metadata:interrupt': '{"reason":"approval-required"}', 'genkit:state': 'error' },
        status: { code: 2, message: 'INTERRUPTED' },
        events: [interruptEvent],
      }),
    ]);
    const node = root.children[0];
    expect(node).toMatchObject({ role: 'tool', label: 'transferMoney', outcome: 'interrupted', statusText: 'paused — waiting for an answer' });
    expect(node.statusText).not.toContain('failed');
    expect(node.errorMessage).toBeUndefined();
  });

  it('a tool with only a ToolInterruptError exception event and status 2 is also paused', () => {
    const [root] = buildSpanTree([
      span('r', { attributes: generate }),
      span('t', { parent: 'r', start: 1, attributes: tool('askUser'), status: { code: 2, message: 'INTERRUPTED' }, events: [interruptEvent] }),
    ]);
    expect(root.children[0]).toMatchObject({ outcome: 'interrupted', statusText: 'paused — waiting for an answer' });
    expect(root.children[0].errorMessage).toBeUndefined();
  });

  it('a tool with another exception and status 2 is failed with its message', () => {
    const [root] = buildSpanTree([
      span('r', { attributes: generate }),
      span('t', {
        parent: 'r',
        start: 1,
        attributes: tool('lookupOrder'),
        status: { code: 2 },
        events: [{ ...interruptEvent, attributes: attributesOf({ 'exception.type': 'Error', 'exception.message': 'order 42 not found' }) }],
      }),
    ]);
    expect(root.children[0]).toMatchObject({ outcome: 'error', statusText: 'failed', errorMessage: 'order 42 not found' });
  });

  it('a restarted tool says it was restarted by a resume', () => {
    const [root] = buildSpanTree([
      span('r', { attributes: generate }),
      span('t', { parent: 'r', start: 1, attributes: { ...tool('transferMoney'), 'genkit:metadata:resumed': '{"approvedBy":"alice"}' } }),
    ]);
    expect(root.children[0]).toMatchObject({ outcome: 'ok', restarted: true, statusText: 'ok — restarted by a resume' });
  });

  it('a restarted tool that interrupts again is paused, not "ok — restarted"', () => {
    const [root] = buildSpanTree([
      span('r', { attributes: generate }),
      span('t', {
        parent: 'r',
        start: 1,
        attributes: { ...tool('transferMoney'), 'genkit:metadata:resumed': 'true', 'genkit:metadata:interrupt': 'true' },
        status: { code: 2 },
      }),
    ]);
    expect(root.children[0]).toMatchObject({ outcome: 'interrupted', restarted: true, statusText: 'paused — waiting for an answer' });
  });

  it('an open span (no end time) is running, with no duration', () => {
    const [root] = buildSpanTree([span('r', { attributes: generate, end: null }), span('m', { parent: 'r', start: 1, attributes: model('scripted/x') })]);
    expect(root).toMatchObject({ outcome: 'running', statusText: 'running…' });
    expect(root.durationMs).toBeUndefined();
    expect(root.children[0]).toMatchObject({ role: 'model', label: 'scripted/x', outcome: 'ok' });
  });

  it('does not hang on a parent cycle in bad data', () => {
    const spans = [span('r'), span('a', { parent: 'b', start: 1 }), span('b', { parent: 'a', start: 2 }), span('self', { parent: 'self', start: 3 })];
    const tree = buildSpanTree(spans);
    const flat = flattenSpanTree(tree);
    expect(flat.map((node) => node.spanId)).toContain('r');
    // No span appears twice, whatever happened to the cycle.
    expect(new Set(flat.map((node) => node.spanId)).size).toBe(flat.length);
  });

  it('keeps every span of a parent cycle visible (spans must not silently vanish)', () => {
    // a ↔ b point at each other and a span points at itself: none has a parent outside the
    // cycle, so none becomes a root. They exist in the trace and must be drawn somewhere.
    const spans = [span('r'), span('a', { parent: 'b', start: 1 }), span('b', { parent: 'a', start: 2 }), span('self', { parent: 'self', start: 3 })];
    const flat = flattenSpanTree(buildSpanTree(spans));
    expect(flat.map((node) => node.spanId).sort()).toEqual(['a', 'b', 'r', 'self']);
  });

  it('keeps two traces apart even when their span ids are equal', () => {
    const tree = buildSpanTree([
      span('root', { traceId: TRACE, start: 0, name: 'first' }),
      span('child', { traceId: TRACE, parent: 'root', start: 1, name: 'first-child' }),
      span('root', { traceId: OTHER_TRACE, start: 5, name: 'second' }),
      span('child', { traceId: OTHER_TRACE, parent: 'root', start: 6, name: 'second-child' }),
    ]);
    expect(tree).toHaveLength(2);
    expect(tree.map((node) => [node.traceId, node.label])).toEqual([
      [TRACE, 'first'],
      [OTHER_TRACE, 'second'],
    ]);
    expect(tree[0].children.map((node) => [node.traceId, node.label])).toEqual([[TRACE, 'first-child']]);
    expect(tree[1].children.map((node) => [node.traceId, node.label])).toEqual([[OTHER_TRACE, 'second-child']]);
  });

  it('does not adopt a child into another trace whose span has its parent id', () => {
    const tree = buildSpanTree([span('root', { traceId: TRACE }), span('child', { traceId: OTHER_TRACE, parent: 'root', start: 1 })]);
    expect(tree).toHaveLength(2);
    expect(tree[0].children).toEqual([]);
    expect(tree[1]).toMatchObject({ spanId: 'child', traceId: OTHER_TRACE, orphan: true });
  });

  it('returns an empty forest for no spans', () => {
    expect(buildSpanTree([])).toEqual([]);
  });
});

describe('flattenSpanTree', () => {
  it('lists the forest depth-first in drawing order', () => {
    const tree = buildSpanTree([
      span('r2', { start: 100, parent: 'missing' }),
      span('r1', { start: 0 }),
      span('a', { parent: 'r1', start: 1 }),
      span('a1', { parent: 'a', start: 2 }),
      span('b', { parent: 'r1', start: 3 }),
    ]);
    expect(flattenSpanTree(tree).map((node) => [node.spanId, node.depth])).toEqual([
      ['r1', 0],
      ['a', 1],
      ['a1', 2],
      ['b', 1],
      ['r2', 0],
    ]);
  });
});
