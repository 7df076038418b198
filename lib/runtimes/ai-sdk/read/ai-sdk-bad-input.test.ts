import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../../errors';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { summarizeCapturedTrace } from '../../../graph/trace-sessions';
import { resumeContextFrom } from '../../resume-context';
import { spanView } from '../../../server/traces/span-view';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';

/** Bad input never throws out of the AI SDK dialect: truncated JSON, missing attributes, lost spans, open spans become notes and states. */
const DIR = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');
const NAMES = ['ai-sdk-approval-approved', 'ai-sdk-approval-approved.legacy', 'ai-sdk-approval-policy', 'ai-sdk-provider-executed-tool', 'ai-sdk-tool-throws', 'ai-sdk-signed-approval-forged'];
const all = async () => (await Promise.all(NAMES.map((name) => loadTraceFile(path.join(DIR, `${name}.otlp.json`))))).flat();
const copy = (spans: Span[], change: (span: Span) => Span | undefined) => spans.map((span) => change({ ...span, attributes: { ...span.attributes } })).filter((span): span is Span => span !== undefined);

/** Everything lib/ does with a set of spans, none of which may throw anything but a LoopscopeError (resume: refused in words). */
function readEverything(spans: Span[]) {
  const graph = buildRunGraph(spans);
  for (const span of spans) spanView(span);
  const traces = new Set(spans.map((span) => span.traceId));
  for (const traceId of traces) summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId));
  try {
    resumeContextFrom(spans);
  } catch (error) {
    expect(LoopscopeError.isInstance(error)).toBe(true);
  }
  JSON.stringify(graph);
  return graph;
}

describe('AI SDK spans with bad input', () => {
  it('every JSON attribute cut in half: drawn, with notes where the messages could not be read', async () => {
    const spans = copy(await all(), (span) => {
      for (const [key, value] of Object.entries(span.attributes)) if (typeof value === 'string' && value.startsWith('[')) span.attributes[key] = value.slice(0, value.length >> 1);
      return span;
    });
    const graph = readEverything(spans);
    expect(graph.summary.generates).toBe(10);
    expect(graph.generates.some((generate) => generate.notes.some((note) => note.includes('could not be read')))).toBe(true);
  });

  it('messages that are JSON of the wrong shape', async () => {
    const spans = copy(await all(), (span) => {
      for (const key of Object.keys(span.attributes)) if (key.endsWith('.messages')) span.attributes[key] = '{"role":"user","parts":7}';
      return span;
    });
    expect(readEverything(spans).summary.generates).toBe(10);
  });

  it('only gen_ai.operation.name / ai.operationId left', async () => {
    const spans = copy(await all(), (span) => {
      const operation = span.attributes['gen_ai.operation.name'] ?? span.attributes['ai.operationId'];
      span.attributes = operation === undefined ? {} : span.attributes['gen_ai.operation.name'] !== undefined ? { 'gen_ai.operation.name': operation } : { 'ai.operationId': operation };
      return span;
    });
    const graph = readEverything(spans);
    expect(graph.summary).toMatchObject({ generates: 10, interrupts: 0 });
  });

  it('lost root spans (truncated traces): model and tool spans alone, tools drawn on their own', async () => {
    const spans = copy(await all(), (span) => (span.name.startsWith('invoke_agent') || span.name === 'ai.generateText' ? undefined : span));
    const graph = readEverything(spans);
    expect(graph.summary.generates).toBe(0);
    expect(graph.nodes.every((node) => node.kind === 'tool-call')).toBe(true);
  });

  it('every span still open (a run in flight)', async () => {
    const spans = copy(await all(), (span) => ({ ...span, endTimeUnixNano: undefined }));
    const graph = readEverything(spans);
    expect(graph.generates.every((generate) => generate.status === 'running')).toBe(true);
    expect(graph.summary.interrupts).toBe(0);
  });

  it('a tool span with no call id and a model answer with no ids: paired by name, never thrown', async () => {
    const spans = copy(await all(), (span) => {
      delete span.attributes['gen_ai.tool.call.id'];
      for (const key of Object.keys(span.attributes)) if (key.endsWith('.messages') && typeof span.attributes[key] === 'string') span.attributes[key] = (span.attributes[key] as string).replaceAll(/"id":"[^"]*",/g, '');
      return span;
    });
    expect(readEverything(spans).summary.generates).toBe(10);
  });
});
