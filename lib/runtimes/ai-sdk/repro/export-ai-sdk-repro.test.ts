import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
// The TypeScript parser tsx itself runs the generated files with.
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiSdkRecording } from '../read/recording';
import { parseTraceText } from '../../../store/load-trace-file';
import { printableText } from '../../../spans/printable-text';
import { exportAiSdkRepro } from './export-ai-sdk-repro';
import { readReplayable } from '../../read-recording';
import { describeOutcome } from '../../../replay/replay-report';
import { HOSTILE_MARKER, HOSTILE_NAME, HOSTILE_TEXT } from '../../../replay/testing/hostile-trace';

const run = promisify(execFile);
const FIXTURES = path.join('lib', 'runtimes', 'ai-sdk', '__fixtures__');
const FILES = readdirSync(FIXTURES).filter((file) => file.endsWith('.otlp.json'));

/**
 * Recorded words of three fixtures, and what each becomes in their hostile copies: tool names,
 * ids, inputs (as keys of the schemas too), outputs, texts, descriptions, a denial's reason and
 * a thrown message, the model's id — rewritten in every string of every span, JSON attributes
 * included, so the copy is still a run the AI SDK replays the same way.
 */
const HOSTILE_WORDS: Record<string, Record<string, string>> = {
  'ai-sdk-tool-throws.otlp.json': { checkInventory: HOSTILE_NAME, 'MUG-BLUE': HOSTILE_TEXT, 'stock-1': HOSTILE_TEXT, 'Stock level of a product.': HOSTILE_TEXT, 'is down.': HOSTILE_TEXT, 'scripted/ai-sdk-tool-throws': HOSTILE_TEXT },
  'ai-sdk-approval-denied.otlp.json': { transferMoney: HOSTILE_NAME, 'Bob is not a known payee.': HOSTILE_TEXT, 'transfer-1': HOSTILE_TEXT, amountUsd: HOSTILE_TEXT },
  'ai-sdk-invalid-tool-input.otlp.json': { getWeather: HOSTILE_NAME, 'weather-1': HOSTILE_TEXT, Lisbon: HOSTILE_TEXT },
};

/** Every string in `value` (keys too) with each word followed by its hostile text. */
function rewrite(value: unknown, words: Record<string, string>): unknown {
  if (typeof value === 'string') return Object.entries(words).reduce((text, [word, extra]) => text.split(word).join(word + extra), value);
  if (Array.isArray(value)) return value.map((item) => rewrite(item, words));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [rewrite(key, words) as string, rewrite(item, words)]));
  return value;
}

/** An OTLP JSON trace with every recorded word rewritten, in JSON-valued attributes as in plain ones. */
function hostileAiSdkTrace(text: string, words: Record<string, string>): string {
  const document = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: { name: string; status?: { message?: string }; attributes?: { value: { stringValue?: string } }[] }[] }[] }[] };
  for (const span of document.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans))) {
    span.name = rewrite(span.name, words) as string;
    if (span.status?.message) span.status.message = rewrite(span.status.message, words) as string;
    for (const attribute of span.attributes ?? []) {
      const raw = attribute.value.stringValue;
      if (raw === undefined) continue;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        attribute.value.stringValue = rewrite(raw, words) as string;
        continue;
      }
      attribute.value.stringValue = typeof json === 'object' && json !== null ? JSON.stringify(rewrite(json, words)) : (rewrite(raw, words) as string);
    }
  }
  return JSON.stringify(document);
}

interface Exported {
  recording: AiSdkRecording;
  source: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The messages each model call of the run was sent, in order, as the GenAI spans record them (`requestsPreload`). */
  modelRequests: unknown[];
}

/**
 * Loaded before a generated file: writes the messages every model call is sent, formatted as
 * `@ai-sdk/otel` records `gen_ai.input.messages` (the same function on the same event), one JSON
 * line per call, to the file LOOPSCOPE_REPRO_REQUESTS names. The AI SDK keeps registered
 * telemetry on `globalThis`, so the generated file's `generateText` calls reach it.
 */
const requestsPreload = [
  'import { appendFileSync } from "node:fs";',
  'import { registerTelemetry } from "ai";',
  'import { formatModelMessages } from "@ai-sdk/otel";',
  'registerTelemetry({',
  '  onLanguageModelCallStart(event) {',
  '    const formatted = formatModelMessages({ prompt: undefined, messages: event.messages });',
  '    appendFileSync(process.env.LOOPSCOPE_REPRO_REQUESTS, `${JSON.stringify(formatted.length > 0 ? formatted : null)}\\n`);',
  '  },',
  '});',
].join('\n');

// Inside the project (git-ignored), so the generated file's `import "ai"` resolves.
const scratch = path.resolve('.loopscope-test', `export-ai-sdk-repro-${process.pid}-${Date.now()}`);
const exported = new Map<string, Exported>();

function aiSdkRecording(text: string, file: string): AiSdkRecording {
  const read = readReplayable(parseTraceText(text, file));
  if (read.runtime !== 'ai-sdk') throw new Error(`${file}: expected an AI SDK recording`);
  return read.recording as AiSdkRecording;
}

async function exportAndRun({ name, recording, options }: { name: string; recording: AiSdkRecording; options: Parameters<typeof exportAiSdkRepro>[1] }): Promise<void> {
  const source = exportAiSdkRepro(recording, options);
  const file = path.join(scratch, `${name.replace(/[^a-z0-9.-]+/gi, '-')}.ts`);
  writeFileSync(file, source);
  const requests = `${file}.requests.jsonl`;
  writeFileSync(requests, '');
  const preload = path.join(scratch, 'requests-preload.mjs');
  const env = { ...process.env, LOOPSCOPE_REPRO_REQUESTS: requests };
  const result = await run(process.execPath, ['--import', 'tsx', '--import', preload, file], { encoding: 'utf8', timeout: 60_000, env }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, exitCode: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', exitCode: error.code ?? 1 }),
  );
  const modelRequests = readFileSync(requests, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
  exported.set(name, { recording, source, ...result, modelRequests });
}

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(path.join(scratch, 'requests-preload.mjs'), requestsPreload);
  const jobs = [
    ...FILES.map((file) => ({ name: file, recording: aiSdkRecording(readFileSync(path.join(FIXTURES, file), 'utf8'), file), options: { source: path.join(FIXTURES, file) } })),
    ...Object.entries(HOSTILE_WORDS).map(([file, words]) => ({
      name: `hostile ${file}`,
      recording: aiSdkRecording(hostileAiSdkTrace(readFileSync(path.join(FIXTURES, file), 'utf8'), words), file),
      // The title and the source are recorded text too.
      options: { title: `A title${HOSTILE_TEXT}`, source: `traces/${file}${HOSTILE_TEXT}`, fileName: `repro.ts${HOSTILE_TEXT}` },
    })),
  ];
  // Each child pays node + tsx + ai start-up: three at a time on a small machine.
  for (let at = 0; at < jobs.length; at += 3) await Promise.all(jobs.slice(at, at + 3).map(exportAndRun));
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The ids generateText makes up per run differ from the recorded ones: compared without them. */
const withoutGeneratedIds = (text: string) => text.replace(/aitxt-[A-Za-z0-9]{24}/g, '(generated id)');
const recordedLines = (recording: AiSdkRecording) => recording.steps.map((step) => withoutGeneratedIds(printableText(`${step.label}: ${describeOutcome(step.outcome)}`)));
const printedLines = (stdout: string) => withoutGeneratedIds(stdout).split('\n').filter((line) => line !== '');

describe('exportAiSdkRepro: the generated file run with tsx', () => {
  it.each(FILES)('%s prints the recorded outcome of every call and exits 0', (file) => {
    const { recording, stdout, stderr, exitCode } = exported.get(file)!;
    expect(exitCode, stderr).toBe(0);
    expect(printedLines(stdout)).toEqual(recordedLines(recording));
  });

  it.each(FILES.filter((file) => !file.includes('.legacy.')))('%s sends every model call the messages the recording shows it was sent', (file) => {
    const { recording, modelRequests, stderr } = exported.get(file)!;
    const recorded = recording.steps.flatMap((step) => step.modelCalls.map((call) => call.request.messages ?? null));
    expect(recorded.length, 'the recording holds model calls').toBeGreaterThan(0);
    expect(modelRequests, stderr).toEqual(recorded);
  });

  it('imports only ai and @ai-sdk/provider types', () => {
    const { source } = exported.get('ai-sdk-approval-policy.otlp.json')!;
    const imports = source.split('\n').filter((line) => /^import /.test(line));
    expect(imports).toEqual([expect.stringMatching(/ from "ai";$/), 'import type { LanguageModelV4, LanguageModelV4Content } from "@ai-sdk/provider";']);
  });

  it('writes the recorded settings: approvals by tool call id, a tool without execute, a signed chain, the step limit', () => {
    const policy = exported.get('ai-sdk-approval-policy.otlp.json')!.source;
    expect(policy).toMatch(/const approvals: Record<string, ToolApprovalStatus> = \{\n {2}"transfer-large": "user-approval",\n {2}"transfer-small": "approved",\n\};/);
    const handedBack = exported.get('ai-sdk-handed-back-tool.otlp.json')!.source;
    expect(handedBack).toContain('["askUser"]: tool({');
    expect(handedBack).not.toContain('playTool("askUser"');
    expect(exported.get('ai-sdk-signed-approval-forged.otlp.json')!.source).toContain('experimental_toolApprovalSecret: approvalSecret,');
    expect(exported.get('ai-sdk-step-limit.otlp.json')!.source).toContain('stopWhen: stepCountIs(2),');
  });

  it('writes the recorded call settings as options of generateText', () => {
    const body = JSON.parse(readFileSync(path.join(FIXTURES, 'ai-sdk-tool-throws.otlp.json'), 'utf8'));
    for (const span of body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans))) {
      if (span.name.startsWith('chat ')) span.attributes.push({ key: 'gen_ai.request.temperature', value: { doubleValue: 0.25 } });
    }
    const source = exportAiSdkRepro(aiSdkRecording(JSON.stringify(body), 'settings.json'));
    expect(source).toContain('    temperature: 0.25,\n');
  });

  it('a forged approval fails again on its signature, with the SDK’s own words', () => {
    const { stdout } = exported.get('ai-sdk-signed-approval-forged.otlp.json')!;
    expect(stdout).toMatch(/^call 2 \(answer\): failed: Tool approval signature verification failed for approval "aitxt-\w+" \(tool call "transfer-1"\): invalid signature$/m);
  });
});

describe('exportAiSdkRepro of traces whose recorded strings are hostile', () => {
  const hostile = Object.keys(HOSTILE_WORDS).map((file) => `hostile ${file}`);

  it('the rewritten traces really carry the hostile text in names, ids, inputs, messages and the model id', () => {
    const { recording } = exported.get('hostile ai-sdk-tool-throws.otlp.json')!;
    expect([...recording.tools.keys()][0]).toContain(HOSTILE_MARKER);
    expect(recording.steps[0].modelId).toContain(HOSTILE_MARKER);
    expect(recording.steps[0].toolExecutions[0].outcome).toMatchObject({ kind: 'error', message: expect.stringContaining(HOSTILE_TEXT) });
    expect(exported.get('hostile ai-sdk-approval-denied.otlp.json')!.recording.steps[1].answers).toEqual([expect.objectContaining({ kind: 'deny', reason: expect.stringContaining(HOSTILE_TEXT) })]);
  });

  it.each(hostile)('%s: the file parses, and no recorded text is in a comment or raw', (name) => {
    const { source } = exported.get(name)!;
    // esbuild drops comments: recorded text in one would vanish from its output.
    const compiled = transformSync(source, { loader: 'ts' }).code;
    const markers = (text: string) => text.split(HOSTILE_MARKER).length - 1;
    expect(markers(source)).toBeGreaterThan(5);
    expect(markers(compiled)).toBe(markers(source));
    expect(source).not.toMatch(/[\r\u2028\u2029]/);
    expect(source).not.toMatch(/<\/?script/i);
    expect(source).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it.each(hostile)('%s: running it prints exactly the recorded outcomes, runs nothing injected and exits 0', (name) => {
    const { recording, stdout, stderr, exitCode } = exported.get(name)!;
    expect(stdout + stderr).not.toContain('INJECTED');
    expect(exitCode, stderr).toBe(0);
    expect(printedLines(stdout)).toEqual(recordedLines(recording));
    for (const printed of stdout.split('\n')) expect(printableText(printed), 'a printed line holds a raw control character').toBe(printed);
  });
});
