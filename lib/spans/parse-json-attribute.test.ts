import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/build-run-graph';
import { parseTraceText } from '../store/load-trace-file';
import { jsonAttributeOrUndefined, parseJsonAttribute } from './parse-json-attribute';
import { MAX_JSON_DEPTH } from './parse-json-limited';
import { deepArrayText, deepObjectText } from './testing/deep-json';

const FIXTURE = 'lib/graph/__fixtures__/plain-round.otlp.json';

/** The real plain-round trace with getWeather's recorded input and output replaced by `text`. */
function withDeepToolAttributes(text: string): string {
  const document = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
  let replaced = 0;
  for (const resourceSpans of document.resourceSpans) {
    for (const scopeSpans of resourceSpans.scopeSpans) {
      for (const span of scopeSpans.spans) {
        if (span.name !== 'getWeather') continue;
        for (const attribute of span.attributes) {
          if (attribute.key === 'genkit:input' || attribute.key === 'genkit:output') {
            attribute.value.stringValue = text;
            replaced++;
          }
        }
      }
    }
  }
  expect(replaced).toBe(2);
  return JSON.stringify(document);
}

// Inside the project (git-ignored), like the other CLI tests' scratch files.
const scratch = path.resolve('.loopscope-test', `deep-attribute-${process.pid}-${Date.now()}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('parseJsonAttribute', () => {
  it('parses JSON strings and passes decoded values through', () => {
    expect(parseJsonAttribute('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonAttribute(7)).toEqual({ ok: true, value: 7 });
    expect(parseJsonAttribute('{"a":')).toMatchObject({ ok: false, raw: '{"a":', error: expect.stringMatching(/^not valid JSON: /) });
  });

  it('reports a string nested past the limit as not parsed, keeping the raw text', () => {
    for (const text of [deepObjectText(10_000), deepArrayText(1_000), deepArrayText(MAX_JSON_DEPTH + 1)]) {
      const levels = text.startsWith('[') ? text.length / 2 : 10_000;
      expect(parseJsonAttribute(text)).toEqual({ ok: false, raw: text, error: `nested ${levels} levels deep; the limit is ${MAX_JSON_DEPTH}` });
      expect(jsonAttributeOrUndefined(text)).toBeUndefined();
    }
    expect(parseJsonAttribute(deepArrayText(MAX_JSON_DEPTH)).ok).toBe(true);
  });
});

describe('a tool span whose recorded input and output nest 10,000 levels deep', () => {
  const text = withDeepToolAttributes(deepObjectText(10_000));

  it('builds the same graph as the real trace, the tool call without a parsed input or output, and writes Graph JSON', () => {
    const original = buildRunGraph(parseTraceText(readFileSync(FIXTURE, 'utf8'), FIXTURE));
    const spans = parseTraceText(text, 'deep.json');
    const graph = buildRunGraph(spans);
    expect(graph.summary).toEqual(original.summary);
    const call = graph.generates.flatMap((generate) => generate.turns.flatMap((turn) => turn.toolCalls)).find((candidate) => candidate.name === 'getWeather');
    expect(call).toBeDefined();
    expect(call!.input).toBeUndefined();
    expect(call!.output).toBeUndefined();
    // The raw text stays on the span, for the detail panel to show as it is.
    expect(spans.find((span) => span.name === 'getWeather')!.attributes['genkit:output']).toBe(deepObjectText(10_000));
    expect(JSON.parse(JSON.stringify(graph)).summary).toEqual(original.summary);
  });

  it('loopscope graph prints it, as text and as Graph JSON, and exits 0', async () => {
    mkdirSync(scratch, { recursive: true });
    const file = path.join(scratch, 'deep.json');
    writeFileSync(file, text);
    const [json, plain] = await Promise.all([loopscope('graph', file, '--json'), loopscope('graph', file)]);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ generates: 1, modelCalls: 2, toolCalls: 2, errors: 0, finishReason: 'stop' });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('getWeather');
  });
});

/** The real command, as a user runs it. */
function loopscope(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
