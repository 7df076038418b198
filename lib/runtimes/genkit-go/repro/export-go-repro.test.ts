import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { readReplayable } from '../../read-recording';
import type { Recording } from '../../genkit-js/read/recording';
import type { StepOutcome } from '../../../contract/replay';
import { describeOutcome } from '../../../replay/replay-report';
import { exportGoRepro, goStringLiteral } from './export-go-repro';

/** Each genkit Go fixture exported as a Go program and run with `go run` against genkit Go v1.12.0 (the module cache the Go runner built from). */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
const FILES = readdirSync(FIXTURES).filter((file) => file.endsWith('.otlp.json'));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'loopscope-go-repro-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module of its own needing only genkit Go (the runner's go.mod without Loopscope's tools), the exported program as main.go; its output. */
async function goRun(name: string, program: string): Promise<string> {
  const folder = mkdtempSync(path.join(scratch, `${name.replace(/[^a-z0-9-]/gi, '-')}-`));
  const runnerMod = readFileSync(path.join('go', 'runner', 'go.mod'), 'utf8');
  const mod = runnerMod.replace('module loopscope.local/go-runner', 'module repro').replace(/\n\s*loopscope\.local\/tools v0\.0\.0/, '').replace(/\nreplace .*/, '');
  expect(mod).not.toContain('loopscope.local');
  writeFileSync(path.join(folder, 'go.mod'), mod);
  copyFileSync(path.join('go', 'runner', 'go.sum'), path.join(folder, 'go.sum'));
  writeFileSync(path.join(folder, 'main.go'), program);
  const { stdout } = await promisify(execFile)('go', ['run', '.'], { cwd: folder, env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' }, timeout: 300_000 });
  return stdout;
}

describe('exportGoRepro: a standalone Go program with genkit Go alone', () => {
  it.each(FILES)('%s: every call ends as recorded when the program runs', async (file) => {
    const recording = readReplayable(await loadTraceFile(path.join(FIXTURES, file))).recording as Recording;
    if (!('models' in recording)) throw new Error('not a genkit recording');
    const program = exportGoRepro(recording, { source: file, fileName: 'main.go' });
    expect(program.split('\n').filter((line) => line.startsWith('\t"github.com/'))).toEqual(['\t"github.com/firebase/genkit/go/ai"', '\t"github.com/firebase/genkit/go/genkit"', '\t"github.com/firebase/genkit/go/plugins/middleware"']);
    const lines = (await goRun(file, program)).trim().split('\n');
    // The program prints a failure's whole first line; the recorded words are the report's (cut at 200 characters).
    const now = (outcome: StepOutcome) => (outcome.kind === 'error' ? `failed: ${outcome.message.split('\n')[0]}` : describeOutcome(outcome));
    expect(lines).toEqual(recording.steps.map((step) => `${step.label}: ${now(step.outcome)}; recorded ${describeOutcome(step.outcome)}`));
  }, 300_000);

  it('recorded text that would break Go source (quotes, backticks, a line end, */, a lone surrogate) stays data', async () => {
    const spans: Span[] = structuredClone(await loadTraceFile(path.join(FIXTURES, 'go-plain-tool-round.otlp.json')));
    const hostile = 'Sunny"`\\n*/ } func main() { panic(1) } \ud800 ☀';
    for (const span of spans) {
      for (const key of ['genkit:output', 'genkit:input']) {
        const value = span.attributes[key];
        if (typeof value === 'string') span.attributes[key] = value.replaceAll('24°C (75°F) and sunny in Lisbon.', JSON.stringify(hostile).slice(1, -1));
      }
    }
    const recording = readReplayable(spans).recording as Recording;
    if (!('models' in recording)) throw new Error('not a genkit recording');
    const program = exportGoRepro(recording);
    // The hostile text is in the program (inside the one string literal), and it still compiles and runs.
    expect(program).toContain('*/ } func main() { panic(1) }');
    const lines = (await goRun('hostile', program)).trim().split('\n');
    expect(lines).toEqual(['generate 1: finished (stop); recorded finished (stop)']);
    expect(goStringLiteral('\ud800x')).toBe('"\ufffdx"');
  }, 300_000);
});
