import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, LoopscopeError } from '../../lib/errors';
import { BenchResultSchema, type BenchResult } from './bench-result';

/**
 * Every `<name>.json` in `directory`, checked against the result format: the Results table is
 * made only from files a benchmark (or a hand copying an earlier run, `measured: false`) wrote
 * in that format. Sorted by name; none when the folder does not exist yet.
 * @throws LoopscopeError INVALID_ARGUMENT naming the file and what is wrong with it (not JSON,
 * a field missing, a `benchmark` that is not its file's name).
 */
export function readBenchResults(directory: string): BenchResult[] {
  if (!existsSync(directory)) return [];
  const files = readdirSync(directory)
    .filter((entry) => entry.endsWith('.json'))
    .sort();
  return files.map((entry) => {
    const file = path.join(directory, entry);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new LoopscopeError('INVALID_ARGUMENT', `bench: ${file} is not JSON: ${errorMessage(error)}`, { cause: error });
    }
    const checked = BenchResultSchema.safeParse(data);
    if (!checked.success) {
      const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ');
      throw new LoopscopeError('INVALID_ARGUMENT', `bench: ${file} is not a benchmark result: ${problems}`, { cause: checked.error });
    }
    if (`${checked.data.benchmark}.json` !== entry) throw new LoopscopeError('INVALID_ARGUMENT', `bench: ${file} holds the result of ${checked.data.benchmark}, not of ${entry.slice(0, -5)}`);
    return checked.data;
  });
}
