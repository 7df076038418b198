import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GoRunnerLineSchema } from '../../../contract/go-runner-lines';

/**
 * The Go runner's own tests of its JSON-lines protocol (go/runner/main_test.go: the real command
 * loop fed command lines, its answer lines checked) run in `npm test`, and every line the runner
 * printed in them is parsed with the zod schemas the TypeScript side holds
 * (lib/contract/go-runner-lines.ts): a line of a kind or shape the schemas do not know fails here.
 */
const RUNNER_DIR = path.join(process.cwd(), 'go', 'runner');
/** Every kind of line the runner writes (go-runner-lines.ts); the Go tests make each one. */
const KINDS = ['ready', 'pong', 'result', 'error', 'replay-call', 'paused', 'pause-ended', 'span-start', 'command-result'];

let scratch: string;
let goTest: { failed: boolean; output: string };
let printed: string[];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-lines-'));
  const linesFile = path.join(scratch, 'lines.jsonl');
  // -count=1: the lines file is written by the tests themselves, so a cached result would leave it empty.
  goTest = await promisify(execFile)('go', ['test', '-count=1', './...'], { cwd: RUNNER_DIR, env: { ...process.env, LOOPSCOPE_GO_RUNNER_LINES: linesFile }, timeout: 600_000, maxBuffer: 16 << 20 }).then(
    ({ stdout }) => ({ failed: false, output: stdout }),
    (error: { stdout?: string; stderr?: string; message: string }) => ({ failed: true, output: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message }),
  );
  printed = (await readFile(linesFile, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
}, 600_000);
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the Go runner’s JSON-lines protocol', () => {
  it('go test ./... in go/runner passes', () => {
    expect(goTest.failed, goTest.output).toBe(false);
  });

  it('every line the runner printed in its tests parses with go-runner-lines.ts, and every kind of line was printed', () => {
    const kinds = new Map<string, number>();
    const refused: string[] = [];
    for (const text of printed) {
      const parsed = GoRunnerLineSchema.safeParse(JSON.parse(text));
      if (parsed.success) kinds.set(parsed.data.type, (kinds.get(parsed.data.type) ?? 0) + 1);
      else refused.push(`${text.slice(0, 300)}\n  ${z.prettifyError(parsed.error).split('\n').join('\n  ')}`);
    }
    expect(refused).toEqual([]);
    expect([...kinds.keys()].sort()).toEqual([...KINDS].sort());
  });

  it('the schemas refuse a line of a kind they do not know, and a known kind with a field they do not know', () => {
    expect(GoRunnerLineSchema.safeParse({ type: 'progress', requestId: '1' }).success).toBe(false);
    expect(GoRunnerLineSchema.safeParse({ type: 'pong', requestId: '1' }).success).toBe(true);
    expect(GoRunnerLineSchema.safeParse({ type: 'pong', requestId: '1', latencyMs: 3 }).success).toBe(false);
    expect(GoRunnerLineSchema.safeParse({ type: 'result', requestId: '1', traceIds: [], failure: { message: 'm', status: 'NOT_FOUND' } }).success).toBe(true);
    expect(GoRunnerLineSchema.safeParse({ type: 'result', requestId: '1', failure: { message: 'm' } }).success).toBe(false);
  });
});
