import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { loadToolModules } from '../runtimes/genkit-js/run/load-tools';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { readRecording } from '../runtimes/genkit-js/replay/read-genkit-recording';
import { replayRecording } from '../runtimes/genkit-js/replay/run-replay';

const ROOT = process.cwd();
const filesIn = (folder: string, suffix: string) => readdirSync(path.join(ROOT, folder)).filter((name) => name.endsWith(suffix)).map((name) => `${folder}/${name}`);
// The genkit JS recordings (the AI SDK examples, traces/ai-sdk-*.json, replay in lib/runtimes/ai-sdk/replay/replay-ai-sdk.test.ts; the
// genkit Go ones, traces/go-*.json, in the Go runner: lib/runtimes/genkit-go/replay/replay-go.capture.test.ts).
const FILES = [...filesIn('lib/graph/__fixtures__', '.otlp.json'), ...filesIn('traces', '.json').filter((file) => !file.startsWith('traces/ai-sdk-') && !file.startsWith('traces/go-'))].sort();

async function spansOf(file: string): Promise<Span[]> {
  return loadTraceFile(path.join(ROOT, file));
}

/** Rewrites one JSON attribute of the first span that matches (a deliberately changed recording). */
function edit(spans: Span[], where: (span: Span) => boolean, attribute: string, change: (value: any) => void): Span[] {
  const copy = structuredClone(spans);
  const span = copy.find(where);
  if (!span) throw new Error('no span to edit');
  const value = JSON.parse(String(span.attributes[attribute]));
  change(value);
  span.attributes[attribute] = JSON.stringify(value);
  return copy;
}

const isModel = (span: Span) => span.attributes['genkit:metadata:subtype'] === 'model';
const isTool = (name: string) => (span: Span) => span.attributes['genkit:metadata:subtype'] === 'tool' && span.name === name;
const isResume = (span: Span) => span.parentSpanId === undefined && String(span.attributes['genkit:input'] ?? '').includes('"resume"');

describe('replay of recorded runs', () => {
  it.each(FILES)('%s replays as recorded (stubbed tools, strict)', async (file) => {
    const report = await replayRecording(readRecording(await spansOf(file)));
    expect(report.divergences).toEqual([]);
    expect(report.matched).toBe(true);
    expect(report.steps.every((step) => step.matched && step.replayed !== undefined)).toBe(true);
  });

  it('reproduces genkit 1.42 bug 1 and bug 3 failures as matches (the recorded failure happens again)', async () => {
    const bug1 = await replayRecording(readRecording(await spansOf('lib/graph/__fixtures__/bug1-restart-reinterrupts.otlp.json')));
    expect(bug1.steps[1].replayed).toEqual({ kind: 'error', message: "Cannot read properties of undefined (reading 'tools')" });
    const bug3 = await replayRecording(readRecording(await spansOf('lib/graph/__fixtures__/bug3-mutated-messages.otlp.json')));
    expect(bug3.steps.map((step) => step.history)).toEqual([undefined, 'replayed', 'replayed-retry']);
    expect(bug3.steps[2].replayed).toMatchObject({ kind: 'error', message: expect.stringContaining("Unresolved tool request 'lookupAccount#la1'") });
    expect(bug3.matched).toBe(true);
  });

  it('a changed model output diverges at the tool call it asks for, naming the input field', async () => {
    const spans = edit(await spansOf('traces/plain-tool-round.json'), isModel, 'genkit:output', (output) => {
      output.message.content[0].toolRequest.input.city = 'Porto';
    });
    const report = await replayRecording(readRecording(spans));
    expect(report.matched).toBe(false);
    expect(report.divergences[0]).toMatchObject({ step: 0, kind: 'tool-input', call: 'tool getWeather', field: 'input.city', recorded: 'Lisbon', replayed: 'Porto' });
    expect(report.stoppedAtStep).toBe(0);
  });

  it('a changed tool output diverges at the next model call, naming the message field', async () => {
    const spans = edit(await spansOf('traces/plain-tool-round.json'), isTool('getWeather'), 'genkit:output', (output) => {
      output.temperatureC = 99;
    });
    const report = await replayRecording(readRecording(spans));
    const first = report.divergences[0];
    expect(first).toMatchObject({ step: 0, kind: 'model-request', call: 'model call 2', recorded: 24, replayed: 99 });
    expect(first.field).toMatch(/^messages\[2\]\.content\[\d\]\.toolResponse\.output\.temperatureC$/);
    expect(first.recordedSpan?.spanId).toBeDefined();
  });

  it('a changed resume part diverges in the resume, and the chain uses the replayed history', async () => {
    const spans = edit(await spansOf('traces/respond-to-question.json'), isResume, 'genkit:input', (input) => {
      const answer = input.resume.respond[0].toolResponse;
      answer.output = { ...answer.output, changed: true };
    });
    const report = await replayRecording(readRecording(spans));
    expect(report.steps[1].history).toBe('replayed');
    expect(report.divergences[0]).toMatchObject({ step: 1, kind: 'model-request', call: 'model call 1', recorded: '(missing)', replayed: true });
    expect(report.divergences[0].field).toMatch(/toolResponse\.output\.changed$/);
  });

  it('lenient mode records every divergence and goes on to the end', async () => {
    const spans = edit(await spansOf('traces/plain-tool-round.json'), isTool('getWeather'), 'genkit:output', (output) => {
      output.temperatureC = 99;
    });
    const report = await replayRecording(readRecording(spans), { mode: 'lenient' });
    expect(report.stoppedAtStep).toBeUndefined();
    expect(report.steps[0].replayed).toMatchObject({ kind: 'finished', finishReason: 'stop' });
    expect(report.divergences.length).toBeGreaterThanOrEqual(1);
  });
});

describe('replay with live tools', () => {
  const changedDir = path.join(ROOT, '.loopscope-test', `tools-changed-${process.pid}`);
  afterAll(() => rm(changedDir, { recursive: true, force: true }));

  it('matches with the unchanged local tools', async () => {
    const report = await replayRecording(readRecording(await spansOf('traces/restart-after-approval.json')), { liveTools: (ai) => loadToolModules(ai, path.join(ROOT, 'tools')) });
    expect(report.divergences).toEqual([]);
    expect(report.liveTools).toBe(true);
  });

  it('diverges at the tool whose code changed, naming the output field', async () => {
    await mkdir(changedDir, { recursive: true });
    const source = (await readFile(path.join(ROOT, 'tools/weather.ts'), 'utf8')).replaceAll("'../lib/", "'../../lib/");
    const changed = source.replace('const temperatureC = 12 + (city.length * 7) % 15;', 'const temperatureC = 13 + (city.length * 7) % 15;');
    expect(changed).not.toBe(source);
    await writeFile(path.join(changedDir, 'weather.ts'), changed);
    const report = await replayRecording(readRecording(await spansOf('traces/plain-tool-round.json')), { liveTools: (ai) => loadToolModules(ai, changedDir) });
    expect(report.matched).toBe(false);
    expect(report.divergences[0]).toMatchObject({ kind: 'tool-outcome', call: 'tool getWeather', field: 'output.temperatureC', recorded: 24, replayed: 25 });
  });
});

describe('shipped genkit 1.42 bug traces', () => {
  it('traces/ holds one trace per resume bug of docs/interrupt-model.md §7, each with a one-line description, each failing as the bug says', async () => {
    const shipped = filesIn('traces', '.json').filter((file) => /genkit-bug-\d/.test(file));
    expect(shipped.map((file) => file.match(/bug-(\d)/)![1]).sort()).toEqual(['1', '2', '3', '4', '5']);
    for (const file of shipped) {
      const body = JSON.parse(await readFile(path.join(ROOT, file), 'utf8')) as { description?: unknown };
      expect(typeof body.description, file).toBe('string');
      expect(body.description as string, file).toMatch(/^genkit 1\.42 bug \d: [^\n]{20,220}$/);
    }
    const outcomes = async (name: string) => (await replayRecording(readRecording(await spansOf(`traces/${name}.json`)))).steps.map((step) => step.replayed);
    expect((await outcomes('genkit-bug-1-restart-reinterrupts'))[1]).toMatchObject({ kind: 'error', message: expect.stringContaining("reading 'tools'") });
    expect((await outcomes('genkit-bug-3-mutated-messages'))[2]).toMatchObject({ kind: 'error', message: expect.stringContaining('INVALID_ARGUMENT') });
    expect(JSON.stringify((await outcomes('genkit-bug-4-no-ref'))[1])).toContain('I received: {\\"approved\\":true,\\"by\\":\\"alice\\"} and {\\"approved\\":true,\\"by\\":\\"alice\\"}');
    expect((await outcomes('genkit-bug-5-tool-alone'))[0]).toEqual({ kind: 'error', message: '' });
  });
});
