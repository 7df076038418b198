/**
 * The recorded framework fixtures, for tests: `lib/runtimes/<runtime>/__fixtures__/<case>.otlp.json`
 * (made by scripts/fixtures/frameworks/<framework>/, each with the `recorded` field the app printed
 * while it ran). One place resolves their paths from the project root, so a move of the dialect
 * folders does not move them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTraceFile } from '../../store/load-trace-file';
import type { Span } from '../../spans/span';

/** The project's root folder (three levels above this file). */
export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The path of one recorded fixture. */
export function frameworkFixturePath(runtime: string, fixtureCase: string): string {
  return path.join(PROJECT_DIR, 'lib', 'runtimes', runtime, '__fixtures__', `${fixtureCase}.otlp.json`);
}

/** The cases recorded for a runtime, sorted. */
export function frameworkFixtureCases(runtime: string): string[] {
  return readdirSync(path.join(PROJECT_DIR, 'lib', 'runtimes', runtime, '__fixtures__'))
    .filter((name) => name.endsWith('.otlp.json'))
    .map((name) => name.slice(0, -'.otlp.json'.length))
    .sort();
}

/** A fixture's spans. */
export function loadFrameworkFixture(runtime: string, fixtureCase: string): Promise<Span[]> {
  return loadTraceFile(frameworkFixturePath(runtime, fixtureCase));
}

/** What the app printed while it made the fixture (`recorded`: its runs, versions, …) and what the fixture shows (`description`). */
export function recordedRuns<Run = Record<string, unknown>>(runtime: string, fixtureCase: string): { description: string; recorded: { runs: Run[] } & Record<string, unknown> } {
  const file = JSON.parse(readFileSync(frameworkFixturePath(runtime, fixtureCase), 'utf8')) as { description: string; recorded: { runs: Run[] } & Record<string, unknown> };
  return { description: file.description, recorded: file.recorded };
}
