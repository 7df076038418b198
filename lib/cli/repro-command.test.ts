import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../runtimes/genkit-js/replay/read-genkit-recording';
import { HOSTILE_TEXT, hostileTrace } from '../replay/testing/hostile-trace';
import { parseTraceText } from '../store/load-trace-file';
import { printableText } from '../spans/printable-text';

/** Runs a command as a user would, without blocking the other tests of the file. */
function node(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
const loopscope = (...args: string[]) => node(['lib/cli/main.ts', ...args]);

// Inside the project (git-ignored): a written repro imports genkit, and --local-tools imports tools/.
const scratch = path.resolve('.loopscope-test', `repro-cli-${process.pid}-${Date.now()}`);
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('loopscope repro', () => {
  it('prints the repro file to stdout, named after the trace in its run instruction', async () => {
    const { status, stdout } = await loopscope('repro', 'traces/genkit-bug-1-restart-reinterrupts.json');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^\/\*\*\n \* Repro/);
    expect(stdout).toContain('npx tsx repro-genkit-bug-1-restart-reinterrupts.ts');
    expect(stdout).toContain('import { genkit, type GenerateResponse, type ModelResponseData } from "genkit/beta";');
  });

  it('--out writes it; --local-tools imports the modules of tools/ that define the recorded tools, and it runs', async () => {
    const out = path.join(scratch, 'local.ts');
    const written = await loopscope('repro', 'traces/restart-after-approval.json', '--local-tools', '--out', out);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout).toContain(`Wrote ${out}`);
    const source = readFileSync(out, 'utf8');
    expect(source).toContain(`import bankTools from "${path.relative(scratch, 'tools/bank').split(path.sep).join('/')}";`);
    expect(source).not.toContain('ai.defineTool(');
    // The real transferMoney of tools/bank.ts interrupts, then runs when restarted: as recorded.
    const ran = await node([out]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('generate 1: interrupted (paused for an answer)\ngenerate 2 (resume): finished (stop)\n');
  });

  it('writes a repro of a trace whose tool name holds code after a line break that runs only the recorded calls', async () => {
    const trace = path.join(scratch, 'hostile.json');
    writeFileSync(trace, hostileTrace(readFileSync('lib/graph/__fixtures__/bug5-tool-alone.otlp.json', 'utf8'), { registrable: false }));
    const out = path.join(scratch, 'hostile-repro.ts');
    const written = await loopscope('repro', trace, '--out', out);
    expect(written.status, written.stderr).toBe(0);
    const ran = await node([out]);
    expect(ran.stdout + ran.stderr).not.toContain('INJECTED');
    expect(ran.status, ran.stderr).toBe(0);
    const [step] = readRecording(parseTraceText(readFileSync(trace, 'utf8'), trace)).steps;
    expect(step.label).toContain(HOSTILE_TEXT);
    // The recorded name is printed as data: its line breaks as \u escapes, not as lines.
    expect(ran.stdout).toBe(`${printableText(step.label)}: failed: (empty message)\n`);
    expect(ran.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on unreadable input and on --out without a file', async () => {
    const [missing, noOut] = await Promise.all([loopscope('repro', 'no-such-file.json'), loopscope('repro', 'traces/restart-after-approval.json', '--out')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^loopscope: .*no-such-file\.json/);
    expect(noOut.status).toBe(2);
    expect(noOut.stderr).toContain('--out needs a file name.');
  });
});
