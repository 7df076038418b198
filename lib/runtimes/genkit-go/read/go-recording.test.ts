import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../../errors';
import { readReplayable } from '../../read-recording';
import type { Recording } from '../../genkit-js/read/recording';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { alignToRecordedOrder } from './request-order';

const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
const load = (name: string) => loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));

function goSteps(spans: Span[]) {
  const read = readReplayable(spans);
  expect(read.runtime).toBe('genkit-go');
  return (read.recording as Recording).steps;
}

describe('the recording a genkit Go replay plays back', () => {
  it('an interrupted Go tool (its span ends genkit:state=error) is played back as an interrupt with the data of the generate’s output message', async () => {
    const [first, resume] = goSteps(await load('go-restart-after-approval'));
    expect(first.toolExecutions).toEqual([expect.objectContaining({ name: 'transferMoney', outcome: { kind: 'interrupt', metadata: { amountUsd: 500, limitUsd: 100, reason: 'approval-required' } } })]);
    // A tool.v2 span records the multipart envelope; the stub returns the tool's own output.
    expect(resume.toolExecutions).toEqual([expect.objectContaining({ name: 'transferMoney', outcome: { kind: 'output', output: { status: 'done', to: 'Bob', amountUsd: 500, approvedBy: 'alice' } } })]);
    expect(resume).toMatchObject({ label: 'generate 2 (resume)', continues: 0 });
  });

  it('a tool that threw stays an error (only a request the output message marks as interrupted is an interrupt)', async () => {
    const [step] = goSteps(await load('go-tool-throws'));
    expect(step.toolExecutions.map((execution) => execution.outcome.kind)).toEqual(['error']);
  });
});

describe('a genkit Go recording that cannot be replayed is refused, naming the span', () => {
  it('a turn whose model span is missing', async () => {
    const recorded = await load('go-plain-tool-round');
    const generate = recorded.find((span) => span.name === 'generate' && span.parentSpanId === undefined)!;
    // The first turn's model span, lost: the turn after it still has its own.
    const spans = recorded.filter((span) => !(span.attributes['genkit:metadata:subtype'] === 'model' && span.parentSpanId === generate.spanId));
    expect(spans).toHaveLength(recorded.length - 1);
    let error: unknown;
    try {
      readReplayable(spans);
    } catch (caught) {
      error = caught;
    }
    expect(LoopscopeError.isInstance(error) && error.code).toBe('FAILED_PRECONDITION');
    expect((error as Error).message).toBe(
      `The genkit Go generate span ${generate.spanId} of trace ${generate.traceId} ran a model turn, but the recording has no model span under it (a span lost on the way?): without the model's recorded answer it cannot be replayed.`,
    );
  });

  it('a model response that is not JSON, or not a genkit response', async () => {
    const spans = await load('go-plain-tool-round');
    const model = spans.find((span) => span.attributes['genkit:metadata:subtype'] === 'model')!;
    const cut = structuredClone(spans);
    cut.find((span) => span.spanId === model.spanId)!.attributes['genkit:output'] = '{"message": {"role": "model"';
    expect(() => readReplayable(cut)).toThrow(new RegExp(`^The model span ${model.spanId} \\(scripted/go-plain-tool-round\\) of trace ${model.traceId} recorded a response that is not a genkit model response \\(genkit:output: .+\\), so it cannot be replayed\\.$`));
    const noMessage = structuredClone(spans);
    noMessage.find((span) => span.spanId === model.spanId)!.attributes['genkit:output'] = '{"finishReason":"stop","message":"Sunny"}';
    expect(() => readReplayable(noMessage)).toThrow('recorded a response that is not a genkit model response (genkit:output: it has no message object)');
    const noContent = structuredClone(spans);
    noContent.find((span) => span.spanId === model.spanId)!.attributes['genkit:output'] = '{"finishReason":"stop","message":{"role":"model","content":"Sunny"}}';
    expect(() => readReplayable(noContent)).toThrow('(genkit:output: its message has no content list)');
  });

  it('a generate that recorded a model request instead of its options (genkit Go 1.4’s shape: no model)', async () => {
    const spans = structuredClone(await load('go-plain-tool-round'));
    const generate = spans.find((span) => span.name === 'generate' && span.parentSpanId === undefined)!;
    const input = JSON.parse(String(generate.attributes['genkit:input']));
    delete input.model;
    generate.attributes['genkit:input'] = JSON.stringify(input);
    expect(() => readReplayable(spans)).toThrow(
      `The genkit Go generate span ${generate.spanId} of trace ${generate.traceId} recorded a model request as its input, not the generate's options (no model, tools as definitions: genkit Go 1.4 wrote it so), so it cannot be replayed faithfully: record it with a genkit Go that records its generate options, as 1.12 does.`,
    );
  });
});

describe('alignToRecordedOrder: genkit Go’s racy orders compared in any order, nothing else', () => {
  const tool = (name: string) => ({ name, description: name });
  it('puts the same tools in the recorded order, and the parts of a resumed tool message', () => {
    const responses = [{ toolResponse: { name: 'a' } }, { toolResponse: { name: 'b' }, metadata: { source: 'pending' } }];
    const recorded = { tools: [tool('a'), tool('b')], messages: [{ role: 'tool', metadata: { resumed: true }, content: responses }] };
    const replayed = { tools: [tool('b'), tool('a')], messages: [{ role: 'tool', metadata: { resumed: true }, content: [...responses].reverse() }] };
    expect(alignToRecordedOrder({ recorded, replayed })).toEqual(recorded);
    expect(replayed.tools[0].name).toBe('b');
  });

  it('leaves a real difference (another tool, an ordinary tool message in another order) for the comparison', () => {
    const recorded = { tools: [tool('a'), tool('b')], messages: [{ role: 'tool', content: [1, 2] }] };
    const replayed = { tools: [tool('b'), tool('c')], messages: [{ role: 'tool', content: [2, 1] }] };
    expect(alignToRecordedOrder({ recorded, replayed })).toBe(replayed);
  });
});
