/**
 * Where a benchmark keeps its result: `bench/results/<name>.json`, committed with the change it
 * measured, so the numbers a doc or a review cites can be read back — with the machine's state
 * beside them (the load average before and after the run: this VM's numbers swing with its
 * neighbours).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The load average now (1, 5 and 15 minutes), rounded to two places. */
export function loadAverage(): number[] {
  return os.loadavg().map((value) => Math.round(value * 100) / 100);
}

/** Writes `result` with the date, node's version, the CPUs and the load average after the run; returns the file's path. */
export function writeBenchResult(name: string, result: Record<string, unknown>): string {
  const directory = path.join(process.cwd(), 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${name}.json`);
  const record = { bench: name, date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, ...result, loadAverageAfter: loadAverage() };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}
