import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { buildSpan, generateAttributes, spanTimes } from '../spans/testing/build-span';
import { spanClaimer } from '../runtimes/classify-span';
import { enclosedByCall } from '../runtimes/genkit-js/read/enclosed-by-call';
import { buildSpanIndex as indexWith, enclosingFlow, spanKey, type SpanIndex } from './span-index';

/** The index as a build makes it: every span classified by the registered dialects. */
const buildSpanIndex = (spans: readonly Span[]) => indexWith(spans, spanClaimer());
/** A generate span nested in another generate (a later turn), as the genkit dialect tells it. */
const isNestedGenerate = (index: SpanIndex, span: Span) => enclosedByCall(index, span);

const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

const OTHER_TRACE = '11111111111111111111111111111111';
const flowAttributes = { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:name': 'approvalFlow' };

/** A generate span with the given parent and `genkit:path`. */
const generateSpan = (name: string, parentSpanId: string | undefined, genkitPath: string) =>
  buildSpan({ name, parentSpanId, attributes: { ...generateAttributes(), 'genkit:path': genkitPath } });

/**
 * The index with a step counter on `parentOf`: a walk that goes round a cycle fails the test
 * with an error instead of hanging the test run (a busy loop never lets a timeout fire).
 */
function guarded(index: SpanIndex, limit = 1_000): SpanIndex {
  let steps = 0;
  return {
    ...index,
    parentOf: (span) => {
      if (++steps > limit) throw new Error(`walked the parent chain more than ${limit} times: a cycle`);
      return index.parentOf(span);
    },
  };
}

const byName = (spans: readonly Span[], name: string) => spans.find((span) => span.name === name)!;

describe('spanKey', () => {
  it('names a span by trace and span id, so several traces can share a file', () => {
    expect(spanKey({ traceId: 'abc', spanId: 'def' })).toBe('abc:def');
    expect(spanKey({ traceId: 'abc', spanId: 'def' })).not.toBe(spanKey({ traceId: OTHER_TRACE, spanId: 'def' }));
  });
});

describe('buildSpanIndex', () => {
  it('keeps every span once; an ended copy wins over an open copy, whichever arrives first', () => {
    const open = buildSpan({ name: 'generate', ...spanTimes({ start: 0, end: null }) });
    const ended = buildSpan({ name: 'generate', ...spanTimes({ start: 0, end: 50 }) });
    const child = buildSpan({ name: 'model', parentSpanId: open.spanId });
    for (const order of [
      [open, ended, child],
      [ended, open, child],
      [child, open, ended],
    ]) {
      const index = buildSpanIndex(order);
      expect(index.spans).toHaveLength(2);
      expect(index.spans).toContain(ended);
      expect(index.spans).not.toContain(open);
      // The child hangs under the copy that was kept.
      expect(index.parentOf(child)).toBe(ended);
      expect(index.childrenOf(ended)).toEqual([child]);
    }
  });

  it('a span id reused in another trace is another span: no cross-trace parents', () => {
    const parent = buildSpan({ name: 'parent' });
    const sameIdElsewhere = buildSpan({ name: 'parent', traceId: OTHER_TRACE });
    const child = buildSpan({ name: 'child', traceId: OTHER_TRACE, parentSpanId: parent.spanId });
    const orphan = buildSpan({ name: 'orphan', parentSpanId: parent.spanId, traceId: '22222222222222222222222222222222' });
    const index = buildSpanIndex([parent, sameIdElsewhere, child, orphan]);
    expect(index.spans).toHaveLength(4);
    expect(index.parentOf(child)).toBe(sameIdElsewhere);
    expect(index.childrenOf(parent)).toEqual([]);
    expect(index.parentOf(orphan)).toBeUndefined();
  });

  it('orders siblings by start time, whatever order they arrived in', () => {
    const root = buildSpan({ name: 'root', ...spanTimes({ start: 0, end: 100 }) });
    const names = ['third', 'first', 'fourth', 'second'];
    const starts: Record<string, number> = { first: 1, second: 2, third: 30, fourth: 40 };
    const children = names.map((name) => buildSpan({ name, parentSpanId: root.spanId, ...spanTimes({ start: starts[name] }) }));
    const index = buildSpanIndex([...children, root]);
    expect(index.childrenOf(root).map((span) => span.name)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('compares start times as numbers, not text: 999 ns comes before 1000 ns', () => {
    const root = buildSpan({ name: 'root', startTimeUnixNano: '1' });
    const late = buildSpan({ name: 'late', parentSpanId: root.spanId, startTimeUnixNano: '1000' });
    const early = buildSpan({ name: 'early', parentSpanId: root.spanId, startTimeUnixNano: '999' });
    expect(buildSpanIndex([root, late, early]).childrenOf(root).map((span) => span.name)).toEqual(['early', 'late']);
  });

  it('a span whose parent never arrived becomes a root; a leaf has no children', () => {
    const orphan = buildSpan({ name: 'orphan', parentSpanId: 'ffffffffffffffff' });
    const leaf = buildSpan({ name: 'leaf', parentSpanId: orphan.spanId });
    const index = buildSpanIndex([orphan, leaf]);
    expect(index.parentOf(orphan)).toBeUndefined();
    expect(index.childrenOf(leaf)).toEqual([]);
    expect(index.parentOf(leaf)).toBe(orphan);
  });

  it('a span that names itself as its parent is a root, not its own child', () => {
    const self = buildSpan({ name: 'self' });
    self.parentSpanId = self.spanId;
    const index = buildSpanIndex([self]);
    expect(index.parentOf(self)).toBeUndefined();
    expect(index.childrenOf(self)).toEqual([]);
  });

  it('claims and classifies each span once and keeps the result', () => {
    const generate = buildSpan({ name: 'generate', attributes: generateAttributes() });
    const index = buildSpanIndex([generate]);
    const first = index.classify(generate);
    expect(first.role).toBe('generate');
    expect(index.classify(generate)).toBe(first);
    expect(index.dialectOf(generate)?.id).toBe('genkit-js');
  });

  it('classifies a span it did not index too (an open copy of an ended span: summaries ask about every span given)', () => {
    const ended = buildSpan({ name: 'generate', attributes: generateAttributes() });
    const open = { ...ended, endTimeUnixNano: undefined };
    const index = buildSpanIndex([open, ended]);
    expect(index.spans).toEqual([ended]);
    expect(index.classify(open)).toMatchObject({ role: 'generate', outcome: 'running' });
    expect(index.classify(open)).toBe(index.classify(open));
    expect(index.parentOf(open)).toBeUndefined();
    expect(index.childrenOf(open)).toEqual([]);
  });

  it('indexes a real trace: the tree of a 4-round loop, each turn a generate inside the previous one', async () => {
    const spans = await fixture('multi-round');
    const index = buildSpanIndex(spans);
    expect(index.spans).toHaveLength(14);
    const roots = index.spans.filter((span) => !index.parentOf(span));
    expect(roots).toHaveLength(1);
    // Each generate holds its model call, then its tool call (started later), then the next turn's generate.
    let current: Span | undefined = roots[0];
    const roles: string[][] = [];
    while (current) {
      const children = index.childrenOf(current);
      roles.push(children.map((child) => index.classify(child).role));
      current = children.find((child) => index.classify(child).role === 'generate');
    }
    expect(roles).toEqual([
      ['model', 'tool', 'generate'],
      ['model', 'tool', 'generate'],
      ['model', 'tool', 'generate'],
      ['model', 'tool', 'generate'],
      ['model'],
    ]);
  });
});

describe('isNestedGenerate', () => {
  it('on a real multi-round trace only the outer generate is top-level', async () => {
    const spans = await fixture('multi-round');
    const index = buildSpanIndex(spans);
    const generates = index.spans.filter((span) => index.classify(span).role === 'generate');
    expect(generates).toHaveLength(5);
    const topLevel = generates.filter((span) => !isNestedGenerate(index, span));
    expect(topLevel).toHaveLength(1);
    expect(topLevel[0].parentSpanId).toBeUndefined();
  });

  it('a generate run as an action (reflection API) counts as the enclosing generate', async () => {
    const index = buildSpanIndex(await fixture('reflection-generate'));
    const generates = index.spans.filter((span) => index.classify(span).role === 'generate');
    expect(generates.map((span) => isNestedGenerate(index, span)).sort()).toEqual([false, true]);
  });

  it('two generates in one flow are both top-level: a flow is not a generate', async () => {
    const index = buildSpanIndex(await fixture('flow-two-generates'));
    const topLevel = index.spans.filter((span) => index.classify(span).role === 'generate' && !isNestedGenerate(index, span));
    expect(topLevel).toHaveLength(2);
    expect(topLevel.every((span) => index.classify(index.parentOf(span)!).role === 'flow')).toBe(true);
  });

  it('where the parent chain breaks, genkit:path tells: a later turn whose outer generate is missing is still nested', async () => {
    for (const name of ['multi-round', 'reflection-generate']) {
      const spans = await fixture(name);
      // The outer generate span has not arrived (still open in the app, or lost).
      const withoutRoot = spans.filter((span) => span.parentSpanId !== undefined);
      const index = buildSpanIndex(withoutRoot);
      const generates = index.spans.filter((span) => index.classify(span).role === 'generate');
      expect(generates.length, name).toBeGreaterThan(0);
      for (const span of generates) expect(isNestedGenerate(index, span), `${name} ${span.attributes['genkit:path']}`).toBe(true);
    }
  });

  it('where the chain breaks and the path names one generate, it is top-level', async () => {
    // flow-two-generates without its flow span: both generates lose their parent.
    const spans = (await fixture('flow-two-generates')).filter((span) => span.parentSpanId !== undefined);
    const index = buildSpanIndex(spans);
    const generates = index.spans.filter((span) => index.classify(span).role === 'generate');
    expect(generates.filter((span) => !isNestedGenerate(index, span))).toHaveLength(2);
    expect(generates.filter((span) => isNestedGenerate(index, span))).toHaveLength(1);
  });

  it('a chain that ends at a real root is trusted over the path', () => {
    const root = generateSpan('generate', undefined, '/{generate,t:util}/{generate,t:util}');
    expect(isNestedGenerate(buildSpanIndex([root]), root)).toBe(false);
  });

  it('a chain broken by a missing parent and no path is top-level', () => {
    const span = buildSpan({ name: 'generate', parentSpanId: 'ffffffffffffffff', attributes: generateAttributes() });
    expect(isNestedGenerate(buildSpanIndex([span]), span)).toBe(false);
  });

  it('a self-parented generate is not nested in itself, and the walk ends', () => {
    const self = generateSpan('generate', undefined, '/{generate,t:util}');
    self.parentSpanId = self.spanId;
    const index = guarded(buildSpanIndex([self]));
    expect(isNestedGenerate(index, self)).toBe(false);
  });

  it('a parent cycle does not hang the walk; the path decides', () => {
    const a = buildSpan({ name: 'a', parentSpanId: buildSpan({ name: 'b' }).spanId });
    const b = buildSpan({ name: 'b', parentSpanId: a.spanId });
    const top = generateSpan('top', a.spanId, '/{generate,t:util}');
    const inner = generateSpan('inner', a.spanId, '/{generate,t:util}/{generate,t:util}');
    const index = guarded(buildSpanIndex([a, b, top, inner]));
    expect(isNestedGenerate(index, top)).toBe(false);
    expect(isNestedGenerate(index, inner)).toBe(true);
  });

  it('a cycle through the generate itself does not hang either', () => {
    const generate = generateSpan('generate', buildSpan({ name: 'wrapper' }).spanId, '/{generate,t:util}');
    const wrapper = buildSpan({ name: 'wrapper', parentSpanId: generate.spanId });
    const index = guarded(buildSpanIndex([generate, wrapper]));
    expect(isNestedGenerate(index, generate)).toBe(false);
  });
});

describe('enclosingFlow', () => {
  it('finds the flow span around a real generate', async () => {
    const spans = await fixture('flow-two-generates');
    const index = buildSpanIndex(spans);
    const flow = byName(spans, 'approvalFlow');
    const generates = index.spans.filter((span) => index.classify(span).role === 'generate');
    expect(generates).toHaveLength(3);
    for (const span of generates) expect(enclosingFlow(index, span)).toBe(flow);
    expect(enclosingFlow(index, flow)).toBeUndefined();
  });

  it('is undefined outside any flow', async () => {
    const index = buildSpanIndex(await fixture('plain-round'));
    for (const span of index.spans) expect(enclosingFlow(index, span)).toBeUndefined();
  });

  it('the closest flow wins when flows nest', () => {
    const outer = buildSpan({ name: 'outerFlow', attributes: flowAttributes });
    const inner = buildSpan({ name: 'innerFlow', parentSpanId: outer.spanId, attributes: flowAttributes });
    const step = buildSpan({ name: 'step', parentSpanId: inner.spanId });
    const generate = buildSpan({ name: 'generate', parentSpanId: step.spanId, attributes: generateAttributes() });
    const index = buildSpanIndex([outer, inner, step, generate]);
    expect(enclosingFlow(index, generate)).toBe(inner);
    expect(enclosingFlow(index, inner)).toBe(outer);
  });

  it('a parent cycle without a flow ends with undefined instead of hanging', () => {
    const a = buildSpan({ name: 'a', parentSpanId: buildSpan({ name: 'b' }).spanId });
    const b = buildSpan({ name: 'b', parentSpanId: a.spanId });
    const generate = buildSpan({ name: 'generate', parentSpanId: a.spanId, attributes: generateAttributes() });
    const index = guarded(buildSpanIndex([a, b, generate]));
    expect(enclosingFlow(index, generate)).toBeUndefined();
  });
});
