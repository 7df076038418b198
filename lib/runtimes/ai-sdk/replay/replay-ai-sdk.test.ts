import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AiSdkRecording } from '../read/recording';
import { readReplayable } from '../../read-recording';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE, REPLAYS_LINK_VALUE } from '../../../spans/trace-link-keys';
import { traceGenerate } from '../../../runner/answer-link';
import { startInProcessCapture, type InProcessCapture } from '../../../runner/in-process-capture';
import { loadAiSdkTools } from '../run/load-ai-sdk-tools';
import { replayAiSdkRecording } from './replay-ai-sdk';
import { tamperedSpans } from '../../../spans/testing/tampered-spans';

const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');
// The fixtures, and the AI SDK example traces shipped in traces/ (paths from the project folder).
const FILES = [
  ...readdirSync(FIXTURES).filter((file) => file.endsWith('.otlp.json')).map((file) => path.join('lib', 'runtimes', 'ai-sdk', '__fixtures__', file)),
  ...readdirSync('traces').filter((file) => file.startsWith('ai-sdk-')).map((file) => path.join('traces', file)),
];

let capture: InProcessCapture;
beforeAll(async () => {
  capture = await startInProcessCapture({ serviceName: 'loopscope-replay-test' });
  // As in the runner: the AI SDK's integration on the global tracer, registered after the provider.
  const [{ registerTelemetry }, { OpenTelemetry }] = await Promise.all([import('ai'), import('@ai-sdk/otel')]);
  registerTelemetry(new OpenTelemetry());
});

const load = (file: string) => loadTraceFile(path.join(FIXTURES, file));

function aiSdkRecording(spans: Span[]): AiSdkRecording {
  const read = readReplayable(spans);
  if (read.runtime !== 'ai-sdk') throw new Error(`expected an AI SDK recording, got ${read.runtime}`);
  return read.recording as AiSdkRecording;
}

describe('replayAiSdkRecording: every AI SDK fixture (GenAI and legacy spans) and example trace replays as recorded', () => {
  it.each(FILES)('%s matches in strict mode, every recorded model and tool call made once', async (file) => {
    const recording = aiSdkRecording(await loadTraceFile(file));
    const report = await replayAiSdkRecording(recording);
    expect(report.divergences).toEqual([]);
    expect(report.matched).toBe(true);
    expect(report.steps.map((step) => step.label)).toEqual(recording.steps.map((step) => step.label));
    for (const step of report.steps) {
      expect(step.modelCalls.replayed).toBe(step.modelCalls.recorded);
      expect(step.toolCalls.replayed).toBe(step.toolCalls.recorded);
      expect(step.replayed?.kind).toBe(step.recorded.kind);
    }
    await capture.take();
  });
});

describe('replayAiSdkRecording: an answering call without the call it answers', () => {
  it.each(['ai-sdk-approval-approved', 'ai-sdk-approval-approved.legacy', 'ai-sdk-approval-denied', 'ai-sdk-approval-policy', 'ai-sdk-handed-back-tool'])(
    '%s: its second trace alone replays from the recorded history (GenAI messages rebuilt, approval ids made up) and matches',
    async (name) => {
      const spans = await load(`${name}.otlp.json`);
      const first = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
      const recording = aiSdkRecording(spans.filter((span) => span.traceId !== first.traceId));
      expect(recording.steps.map((step) => [step.label, step.continues])).toEqual([['call 1 (answer)', undefined]]);
      const report = await replayAiSdkRecording(recording);
      expect(report.divergences).toEqual([]);
      expect(report.steps[0]).toMatchObject({ history: 'recorded', matched: true });
      expect(report.steps[0].modelCalls).toEqual({ recorded: 1, replayed: 1 });
    },
  );
});

describe('replayAiSdkRecording: an answering call continues the whole history its replayed parent returned', () => {
  const roots = (spans: Span[]) => spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));

  it('tool rounds, then a pause: the answer is sent every round of the paused call, as recorded', async () => {
    const recording = aiSdkRecording(await load('ai-sdk-approvals-after-tool-rounds.otlp.json'));
    expect(recording.steps.map((step) => [step.modelCalls.length, step.continues])).toEqual([
      [3, undefined],
      [1, 0],
      [1, 1],
    ]);
    const report = await replayAiSdkRecording(recording);
    expect(report.divergences).toEqual([]);
    expect(report.steps.map((step) => step.history)).toEqual([undefined, 'replayed', 'replayed']);
    expect(report.steps.at(-1)?.replayed).toEqual({ kind: 'finished', finishReason: 'stop', message: 'It is 75°F in Lisbon. Sent Bob 500 USD (TX-3500) and Dave 900 USD (TX-4900).' });
  });

  it('an answering call that paused again, replayed without the first call: the next answer keeps the tool it approved and ran', async () => {
    const spans = await load('ai-sdk-approvals-after-tool-rounds.otlp.json');
    const [first] = roots(spans);
    const recording = aiSdkRecording(spans.filter((span) => span.traceId !== first.traceId));
    expect(recording.steps.map((step) => [step.label, step.modelCalls.length, step.continues])).toEqual([
      ['call 1 (answer)', 1, undefined],
      ['call 2 (answer)', 1, 0],
    ]);
    const report = await replayAiSdkRecording(recording);
    expect(report.divergences).toEqual([]);
    expect(report.steps.map((step) => [step.history, step.matched])).toEqual([
      ['recorded', true],
      ['replayed', true],
    ]);
  });
});

describe('replayAiSdkRecording: the replay is captured like a run, nested under its recording', () => {
  it('an approval answered: the same spans as recorded, each call linked to the call it replays, the answer to the replayed pause', async () => {
    const recorded = await load('ai-sdk-approval-approved.otlp.json');
    await capture.take();
    const report = await replayAiSdkRecording(aiSdkRecording(recorded), { traceGenerate });
    expect(report.matched).toBe(true);
    const { spans, started } = await capture.take();
    expect(spans).toHaveLength(started);
    // Same shape: invoke_agent, step, chat per call; the approved tool before step 1 of the answer.
    expect(spans.map((span) => span.name).sort()).toEqual(recorded.map((span) => span.name).sort());
    const roots = spans.filter((span) => span.name.startsWith('invoke_agent')).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    const recordedRoots = recorded.filter((span) => span.name.startsWith('invoke_agent')).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    expect(roots).toHaveLength(2);
    roots.forEach((root, position) => {
      const replays = root.links.filter((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === REPLAYS_LINK_VALUE);
      expect(replays.map((link) => link.spanId)).toEqual([recordedRoots[position].spanId]);
    });
    const answers = roots[1].links.filter((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === ANSWERS_LINK_VALUE);
    expect(answers.map((link) => link.spanId)).toEqual([roots[0].spanId]);
    // Named as the recorded calls were (their functionId).
    expect(roots.map((root) => root.attributes['gen_ai.agent.name'])).toEqual(recordedRoots.map((root) => root.attributes['gen_ai.agent.name']));
  });
});

describe('replayAiSdkRecording: divergences named by call and field', () => {
  it('a changed recorded tool output: the next model request differs, at call 1, model call 2, in its messages (strict stops there)', async () => {
    const spans = tamperedSpans({ spans: await load('ai-sdk-plain-tool-round.otlp.json'), where: (span) => span.name === 'execute_tool getWeather', attribute: 'gen_ai.tool.call.result', change: (value) => value.replace('"sunny"', '"hail"') });
    const report = await replayAiSdkRecording(aiSdkRecording(spans));
    expect(report.matched).toBe(false);
    expect(report.stoppedAtStep).toBe(0);
    expect(report.divergences).toHaveLength(1);
    const [divergence] = report.divergences;
    expect(divergence).toMatchObject({ step: 0, stepLabel: 'call 1', kind: 'model-request', call: 'model call 2', recorded: 'sunny', replayed: 'hail' });
    expect(divergence.field).toMatch(/^messages\[\d+\]\.parts\[\d+\]\.response\.conditions$/);
    expect(divergence.recordedSpan?.spanId).toBe(spans.filter((span) => span.name.startsWith('chat '))[1].spanId);
    expect(report.steps[0].replayed).toEqual({ kind: 'stopped' });
  });

  it('a tool whose definition changed since the recording (live tools): the first request differs at tools[0].description', async () => {
    const catalog = await loadAiSdkTools(path.join(process.cwd(), 'tools', 'ai-sdk'));
    let spans = await load('ai-sdk-tool-throws.otlp.json');
    for (const chat of spans.filter((span) => span.name.startsWith('chat '))) {
      spans = tamperedSpans({ spans, where: (span) => span.spanId === chat.spanId, attribute: 'gen_ai.tool.definitions', change: (value) => value.replace(/"description":"[^"]*"/, '"description":"an older description"') });
    }
    const report = await replayAiSdkRecording(aiSdkRecording(spans), { mode: 'lenient', liveTools: catalog.tools });
    expect(report.divergences[0]).toMatchObject({ call: 'model call 1', field: 'tools[0].description', recorded: 'an older description', replayed: 'Stock level of a product.' });
    // Lenient: the loop went on to the end, and ended as recorded.
    expect(report.stoppedAtStep).toBeUndefined();
    expect(report.steps[0].replayed).toMatchObject({ kind: 'finished', finishReason: 'stop' });
  });

  it('a changed denial reason: the answering call sends another denial, seen in its first model request', async () => {
    const spans = tamperedSpans({
      spans: await load('ai-sdk-approval-denied.otlp.json'),
      where: (span) => span.name.startsWith('chat ') && String(span.attributes['gen_ai.input.messages']).includes('denied'),
      attribute: 'gen_ai.input.messages',
      change: (value) => value.replace('Bob is not a known payee.', 'Bob is known.'),
    });
    const recording = aiSdkRecording(spans);
    // The reason the answer sent is read from what the model got: the replay sends the changed one too.
    expect(recording.steps[1].answers).toEqual([{ kind: 'deny', toolCallId: 'transfer-1', toolName: 'transferMoney', reason: 'Bob is known.' }]);
    expect((await replayAiSdkRecording(recording)).matched).toBe(true);
  });

  it('recorded call settings are sent again and compared: the same on every call matches, one changed is named at config', async () => {
    const spans = structuredClone(await load('ai-sdk-plain-tool-round.otlp.json'));
    const chats = spans.filter((span) => span.name.startsWith('chat ')).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    for (const chat of chats) Object.assign(chat.attributes, { 'gen_ai.request.temperature': 0.3, 'gen_ai.request.max_tokens': 256 });
    const recording = aiSdkRecording(spans);
    expect(recording.steps[0].settings).toEqual({ temperature: 0.3, maxOutputTokens: 256 });
    expect((await replayAiSdkRecording(recording)).divergences).toEqual([]);
    chats[1].attributes['gen_ai.request.temperature'] = 0.9;
    const report = await replayAiSdkRecording(aiSdkRecording(spans));
    expect(report.divergences[0]).toMatchObject({ call: 'model call 2', field: 'config.temperature', recorded: 0.9, replayed: 0.3 });
  });

  it('a fork of a tool output replays from there: the changed output reaches the model', async () => {
    const spans = await load('ai-sdk-plain-tool-round.otlp.json');
    const tool = spans.find((span) => span.name === 'execute_tool getWeather')!;
    const report = await replayAiSdkRecording(aiSdkRecording(spans), {
      mode: 'lenient',
      overrides: { toolOutcomes: new Map([[`${tool.traceId}:${tool.spanId}`, { kind: 'output', output: { city: 'Lisbon', tempC: 40, conditions: 'heatwave' } }]]) },
    });
    expect(report.divergences[0]).toMatchObject({ call: 'model call 2', kind: 'model-request' });
    // The first field that differs, keys in order: conditions.
    expect(report.divergences[0]).toMatchObject({ recorded: 'sunny', replayed: 'heatwave' });
  });

  it('a model call removed from the recording: the replay makes an extra call, named', async () => {
    const spans = (await load('ai-sdk-plain-tool-round.otlp.json')).filter((span, _, all) => span !== all.filter((candidate) => candidate.name.startsWith('chat ')).at(-1));
    const report = await replayAiSdkRecording(aiSdkRecording(spans));
    expect(report.divergences[0]).toMatchObject({ kind: 'model-extra-call', call: 'model call 2', field: '(call)' });
  });
});

describe('replayAiSdkRecording: live tools', () => {
  it('the tools of tools/ai-sdk/ run instead of the stubs, and the shipped fixtures still match', async () => {
    const catalog = await loadAiSdkTools(path.join(process.cwd(), 'tools', 'ai-sdk'));
    for (const file of ['ai-sdk-plain-tool-round.otlp.json', 'ai-sdk-approval-policy.otlp.json']) {
      const report = await replayAiSdkRecording(aiSdkRecording(await load(file)), { liveTools: catalog.tools });
      expect(report.liveTools).toBe(true);
      expect(report.divergences).toEqual([]);
    }
  });

  it('a live tool that returns something else than recorded is a tool-outcome divergence', async () => {
    const catalog = await loadAiSdkTools(path.join(process.cwd(), 'tools', 'ai-sdk'));
    const spans = tamperedSpans({ spans: await load('ai-sdk-plain-tool-round.otlp.json'), where: (span) => span.name === 'execute_tool getWeather', attribute: 'gen_ai.tool.call.result', change: (value) => value.replace('"sunny"', '"hail"') });
    const report = await replayAiSdkRecording(aiSdkRecording(spans), { liveTools: catalog.tools, mode: 'lenient' });
    expect(report.divergences[0]).toMatchObject({ kind: 'tool-outcome', call: 'tool getWeather', recorded: 'hail', replayed: 'sunny' });
  });
});
