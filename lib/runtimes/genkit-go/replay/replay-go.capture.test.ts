import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../genkit-js/read/recording';
import { readReplayable } from '../../read-recording';
import { startTestReceiver, type TestReceiver } from '../../../server/testing/capture-harness';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE, REPLAYS_LINK_VALUE } from '../../../spans/trace-link-keys';
import { buildGoRunner, startGoRunner, type GoRunner } from '../run/go-runner';
import { replayGoRecording } from './replay-go';
import { tamperedSpans } from '../../../spans/testing/tampered-spans';

/**
 * Every genkit Go fixture replayed in the real Go runner (go/runner/replay.go: genkit Go's own
 * loop, replay models, stub or live tools), its spans received by a loopback OTLP receiver and
 * counted; divergences named by call and field as for genkit JS.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
// The fixtures, and the genkit Go example traces shipped in traces/ (paths from the fixtures folder).
const FILES = [
  ...readdirSync(FIXTURES).filter((file) => file.endsWith('.otlp.json')),
  ...readdirSync('traces').filter((file) => file.startsWith('go-')).map((file) => path.join('..', '..', '..', '..', 'traces', file)),
];

let receiver: TestReceiver;
let runner: GoRunner;
beforeAll(async () => {
  receiver = await startTestReceiver();
  runner = await startGoRunner({ binary: await buildGoRunner({ projectDir: process.cwd() }), projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token });
}, 600_000);
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
});

function goRecording(spans: Span[]): Recording {
  const read = readReplayable(spans);
  if (read.runtime !== 'genkit-go') throw new Error(`expected a genkit Go recording, got ${read.runtime}`);
  return read.recording as Recording;
}

async function spansOf(traceIds: string[]): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of traceIds) spans.push(...((await receiver.store.get(traceId)) ?? []));
  return spans;
}

describe('replayGoRecording: every genkit Go fixture replays in the Go runner as recorded', () => {
  it('there are Go fixtures and example traces to replay', () => expect(FILES.filter((file) => file.includes('traces')).length).toBeGreaterThanOrEqual(1));

  it.each(FILES)('%s matches in strict mode, every recorded model and tool call made once, as many spans as recorded', async (file) => {
    const recorded = await loadTraceFile(path.join(FIXTURES, file));
    const recording = goRecording(recorded);
    const { report, traceIds } = await replayGoRecording(recording, { runner });
    expect(report.divergences).toEqual([]);
    expect(report.matched).toBe(true);
    expect(report.steps.map((step) => step.label)).toEqual(recording.steps.map((step) => step.label));
    for (const step of report.steps) {
      expect(step.modelCalls.replayed).toBe(step.modelCalls.recorded);
      expect(step.toolCalls.replayed).toBe(step.toolCalls.recorded);
      expect(step.replayed?.kind).toBe(step.recorded.kind);
    }
    const replayed = await spansOf(traceIds);
    // The same loop made the same spans: names by count, genkit Go's own.
    const names = (spans: Span[]) => spans.map((span) => span.name).sort();
    expect(names(replayed)).toEqual(names(recorded));
    expect(replayed.every((span) => span.resource['telemetry.sdk.language'] === 'go')).toBe(true);
  });

  it('a replayed resume links to the replayed generate it answers, and each replayed generate to the recorded one it replays', async () => {
    const recorded = await loadTraceFile(path.join(FIXTURES, 'go-restart-after-approval.otlp.json'));
    const { report, traceIds } = await replayGoRecording(goRecording(recorded), { runner });
    expect(report.matched).toBe(true);
    const replayed = await spansOf(traceIds);
    const roots = replayed.filter((span) => span.parentSpanId === undefined && span.name === 'generate');
    expect(roots).toHaveLength(2);
    const recordedRoots = recorded.filter((span) => span.parentSpanId === undefined && span.name === 'generate');
    const linksOf = (span: Span, type: string) => span.links.filter((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === type).map((link) => `${link.traceId}:${link.spanId}`);
    expect(roots.map((root) => linksOf(root, REPLAYS_LINK_VALUE))).toEqual(recordedRoots.map((root) => [`${root.traceId}:${root.spanId}`]));
    expect(linksOf(roots[1], ANSWERS_LINK_VALUE)).toEqual([`${roots[0].traceId}:${roots[0].spanId}`]);
    expect(report.steps[1].history).toBe('replayed');
  });

  it.each(FILES)('live tools: %s — the real tools of tools/go/ run under the comparison (restarts, interrupts and errors too) and match the recording', async (file) => {
    const recording = goRecording(await loadTraceFile(path.join(FIXTURES, file)));
    const { report } = await replayGoRecording(recording, { runner, liveTools: true });
    expect(report.liveTools).toBe(true);
    expect(report.divergences).toEqual([]);
    for (const step of report.steps) expect(step.toolCalls.replayed).toBe(step.toolCalls.recorded);
  });
});

describe('replayGoRecording: divergences are named by call and field', () => {
  it('a changed recorded tool output is a divergence of the model request that carries it (strict: the replay stops there)', async () => {
    const spans = tamperedSpans({
      spans: await loadTraceFile(path.join(FIXTURES, 'go-plain-tool-round.otlp.json')),
      where: (span) => span.name === 'getWeather',
      attribute: 'genkit:output',
      change: (value) => value.replace('"sunny"', '"rainy"'),
    });
    const { report } = await replayGoRecording(goRecording(spans), { runner });
    expect(report.matched).toBe(false);
    expect(report.stoppedAtStep).toBe(0);
    const [first] = report.divergences;
    // The stub answered "rainy"; the recorded second model request still says "sunny".
    expect(first).toMatchObject({ kind: 'model-request', call: 'model call 2', recorded: 'sunny', replayed: 'rainy' });
    expect(first.field).toMatch(/^messages\[2\]\.content\[\d\]\.toolResponse\.output\.conditions$/);
    expect(first.recordedSpan).toBeDefined();
    expect(first.replayedSpan?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(report.steps[0].replayed).toEqual({ kind: 'stopped' });
  });

  it('with live tools, a changed recorded tool output is the tool’s divergence: tool getWeather, field output.conditions', async () => {
    const spans = tamperedSpans({
      spans: await loadTraceFile(path.join(FIXTURES, 'go-plain-tool-round.otlp.json')),
      where: (span) => span.name === 'getWeather',
      attribute: 'genkit:output',
      change: (value) => value.replace('"sunny"', '"rainy"'),
    });
    const { report } = await replayGoRecording(goRecording(spans), { runner, liveTools: true, mode: 'lenient' });
    expect(report.divergences[0]).toMatchObject({ kind: 'tool-outcome', call: 'tool getWeather', field: 'output.conditions', recorded: 'rainy', replayed: 'sunny' });
  });

  it('a changed recorded final answer is named as the final message of the last step (lenient: every step replays)', async () => {
    const spans = tamperedSpans({
      spans: await loadTraceFile(path.join(FIXTURES, 'go-restart-after-approval.otlp.json')),
      where: (span) => span.name === 'generate' && span.parentSpanId === undefined && String(span.attributes['genkit:output']).includes('Transfer done'),
      attribute: 'genkit:output',
      change: (value) => value.replace('Transfer done', 'Transfer failed'),
    });
    const { report } = await replayGoRecording(goRecording(spans), { runner, mode: 'lenient' });
    expect(report.steps.map((step) => step.matched)).toEqual([true, false]);
    expect(report.divergences).toEqual([expect.objectContaining({ kind: 'outcome', call: 'final message', field: 'message.content[0].text', step: 1, stepLabel: 'generate 2 (resume)' })]);
  });
});
