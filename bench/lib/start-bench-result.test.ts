import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BenchResultSchema } from './bench-result';
import { gitState, startBenchResult } from './start-bench-result';

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function folder(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-result-test-'));
  temporary.push(directory);
  return directory;
}

/** A checkout of one commit, with a bench/results/ folder as the project's. */
function checkout(): string {
  const directory = folder();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: directory, stdio: 'ignore' });
  git('init', '-q');
  mkdirSync(path.join(directory, 'bench', 'results'), { recursive: true });
  mkdirSync(path.join(directory, 'docs'));
  writeFileSync(path.join(directory, 'docs', 'performance.md'), '# Performance\n');
  writeFileSync(path.join(directory, 'code.ts'), 'export {};\n');
  writeFileSync(path.join(directory, 'bench', 'results', 'graph-build.json'), '{}\n');
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'one');
  return directory;
}

const measured = { measures: 'what it measures', numbers: { ratio: 1.234567, spans: 10_000, sides: { bareMs: 0.123456 } }, summary: '1.23×', target: 'ratio ≤ 2×', met: true };

describe('startBenchResult', () => {
  it('writes <name>.json with the run’s commit, Node, cores, load at start and end, and the numbers to four digits', () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const projectDir = checkout();
    const resultsDir = folder();
    const recorder = startBenchResult('graph-build', { resultsDir, projectDir });
    const file = recorder.write(measured);
    expect(file).toBe(path.join(resultsDir, 'graph-build.json'));
    const written = BenchResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(written).toMatchObject({
      benchmark: 'graph-build',
      measured: true,
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectDir, encoding: 'utf8' }).trim(),
      dirty: false,
      node: process.version,
      cpus: os.cpus().length,
      numbers: { ratio: 1.235, spans: 10_000, sides: { bareMs: 0.1235 } },
      summary: '1.23×',
      target: 'ratio ≤ 2×',
      met: true,
    });
    expect(written.loadAverage?.start).toHaveLength(3);
    expect(written.loadAverage?.end).toHaveLength(3);
    expect(Date.now() - Date.parse(written.date)).toBeLessThan(60_000);
  });

  it('refuses a result whose target has no verdict, or a number that is not finite, and writes nothing', () => {
    const resultsDir = folder();
    const recorder = startBenchResult('graph-build', { resultsDir, projectDir: checkout() });
    expect(() => recorder.write({ ...measured, met: null })).toThrow(/the result of graph-build is not written: met: met is null exactly when target is null/);
    expect(() => recorder.write({ ...measured, numbers: { ratio: Number.NaN } })).toThrow(/the result of graph-build is not written: numbers\.ratio/);
    expect(existsSync(path.join(resultsDir, 'graph-build.json'))).toBe(false);
  });

  it('refuses a name that is not a benchmark file’s', () => {
    expect(() => startBenchResult('../graph build')).toThrow(/kebab-case benchmark name/);
  });
});

describe('gitState', () => {
  it('calls a checkout dirty for a change to its code or a new file, not for results in bench/results/ or the table in docs/', () => {
    const projectDir = checkout();
    expect(gitState(projectDir).dirty).toBe(false);
    writeFileSync(path.join(projectDir, 'bench', 'results', 'graph-build.json'), '{"changed":true}\n');
    writeFileSync(path.join(projectDir, 'bench', 'results', 'step-overhead.json'), '{}\n');
    writeFileSync(path.join(projectDir, 'docs', 'performance.md'), '# Performance, the table made again\n');
    expect(gitState(projectDir).dirty).toBe(false);
    writeFileSync(path.join(projectDir, 'new-benchmark.ts'), 'export {};\n');
    expect(gitState(projectDir).dirty).toBe(true);
    rmSync(path.join(projectDir, 'new-benchmark.ts'));
    writeFileSync(path.join(projectDir, 'code.ts'), 'export const changed = true;\n');
    expect(gitState(projectDir)).toEqual({ commit: expect.stringMatching(/^[0-9a-f]{7,}$/), dirty: true });
  });

  it('knows neither outside a git checkout', () => {
    expect(gitState(folder())).toEqual({ commit: null, dirty: null });
  });
});
