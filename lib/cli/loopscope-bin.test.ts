/**
 * The package's `bin` (bin/loopscope.js) as a user runs it: `npx loopscope …` inside the clone,
 * the launcher from another folder, and `npm run -s loopscope -- …`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const PROJECT_DIR = path.resolve(import.meta.dirname, '../..');
const TRACE = 'traces/parallel-pending-output.json';
const SUMMARY = { traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' };
const elsewhere = mkdtempSync(path.join(tmpdir(), 'loopscope-bin-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

function run(command: string, args: string[], cwd = PROJECT_DIR) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bin/loopscope.js', () => {
  it('is the package.json bin named loopscope, and npm run loopscope goes through it', () => {
    const manifest = JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ loopscope: 'bin/loopscope.js' });
    expect(manifest.scripts.loopscope).toBe('node bin/loopscope.js');
  });

  it('`npx loopscope --help` and `npx loopscope graph` work inside the clone, also from a subfolder', () => {
    const help = run('npx', ['loopscope', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: loopscope <command> \[options\]/);

    const graph = run('npx', ['loopscope', 'graph', `../${TRACE}`, '--json'], path.join(PROJECT_DIR, 'lib'));
    expect(graph.stderr).toBe('');
    expect(graph.status).toBe(0);
    expect(JSON.parse(graph.stdout).summary).toStrictEqual(SUMMARY);
  });

  it('runs from any folder: tsx and main.ts come from the package, trace paths from the caller', () => {
    copyFileSync(path.join(PROJECT_DIR, TRACE), path.join(elsewhere, 'copy.json'));
    const graph = run(process.execPath, [path.join(PROJECT_DIR, 'bin/loopscope.js'), 'graph', 'copy.json', '--json'], elsewhere);
    expect(graph.stderr).toBe('');
    expect(graph.status).toBe(0);
    expect(JSON.parse(graph.stdout).summary).toStrictEqual(SUMMARY);
  });

  it("forwards the command's exit codes and stderr: 1 for a failed check, 2 for unreadable input", () => {
    const launcher = path.join(PROJECT_DIR, 'bin/loopscope.js');
    const refused = run(process.execPath, [launcher, 'resume', path.join(PROJECT_DIR, TRACE), '--dry-run'], elsewhere);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain("Unresolved tool request 'transferMoney#refund-1' was not handled by the 'resume' argument.");

    const missing = run(process.execPath, [launcher, 'graph', 'no-such-file.json'], elsewhere);
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('loopscope: Trace file not found: no-such-file.json\n');
  });

  it('`npm run -s loopscope -- graph` still works', () => {
    const graph = run('npm', ['run', '-s', 'loopscope', '--', 'graph', TRACE, '--json']);
    expect(graph.status).toBe(0);
    expect(JSON.parse(graph.stdout).summary).toStrictEqual(SUMMARY);
  });
});
