import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LoopscopeError } from '../../errors';
import { goldenSources } from './golden-sources';

/**
 * The record that ties the goldens to GRAPH_BUILDER_VERSION (version-lock.json beside them):
 * the version the goldens were made with and, per golden, a hash of the trace file it was drawn
 * from and of its Graph JSON. A saved graph is cached under the builder version, so Graph JSON
 * that changes for the same spans needs a new version; a golden whose source changed (a
 * regenerated fixture) may change without one. Written by `npm run fixtures -- goldens`
 * (scripts/fixtures/goldens.ts), checked by lib/graph/version-lock.test.ts.
 */
export const VersionLockSchema = z.object({
  graphBuilderVersion: z.number().int().positive(),
  goldens: z.record(z.string(), z.object({ source: z.string(), graph: z.string() })),
});
export type VersionLock = z.infer<typeof VersionLockSchema>;
/** A golden's two hashes: of its source trace file and of its committed Graph JSON (undefined: no golden file yet). */
export type GoldenHashes = Record<string, { source: string; graph: string | undefined }>;

/** Where the lock is, from the project folder (messages name it so). */
export const VERSION_LOCK_FILE = path.join('lib', 'graph', '__goldens__', 'version-lock.json');
const VERSION_FILE = 'lib/graph/graph-builder-version.ts';
const REGENERATE = 'npm run fixtures -- goldens';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The hashes of every golden source and of its committed golden file, by golden file name. */
export function goldenHashes(projectDir: string): GoldenHashes {
  const hashes: GoldenHashes = {};
  for (const source of goldenSources(projectDir)) {
    const golden = path.join(projectDir, 'lib', 'graph', '__goldens__', source.golden);
    hashes[source.golden] = { source: sha256(readFileSync(source.file)), graph: existsSync(golden) ? sha256(readFileSync(golden)) : undefined };
  }
  return hashes;
}

/** The committed lock; a missing or malformed one is an error that says how to make it. */
export function readVersionLock(projectDir: string): VersionLock {
  const file = path.join(projectDir, VERSION_LOCK_FILE);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new LoopscopeError('FAILED_PRECONDITION', `${VERSION_LOCK_FILE} cannot be read (${(error as Error).message}): run ${REGENERATE}.`, { cause: error });
  }
  const parsed = VersionLockSchema.safeParse(json);
  if (!parsed.success) throw new LoopscopeError('FAILED_PRECONDITION', `${VERSION_LOCK_FILE} is not a version lock (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}): run ${REGENERATE}.`);
  return parsed.data;
}

/** The lock for these goldens made by builder `version` (every golden must exist). */
export function versionLockOf(options: { version: number; goldens: GoldenHashes }): VersionLock {
  const goldens: VersionLock['goldens'] = {};
  for (const name of Object.keys(options.goldens).sort()) {
    const { source, graph } = options.goldens[name];
    if (graph === undefined) throw new LoopscopeError('FAILED_PRECONDITION', `lib/graph/__goldens__/${name} does not exist: run ${REGENERATE}.`);
    goldens[name] = { source, graph };
  }
  return { graphBuilderVersion: options.version, goldens };
}

/** The goldens whose Graph JSON differs from the lock although the spans they are drawn from do not. */
export function changedForSameSpans(options: { lock: VersionLock; goldens: GoldenHashes }): string[] {
  return Object.entries(options.goldens)
    .filter(([name, now]) => {
      const locked = options.lock.goldens[name];
      return locked !== undefined && now.graph !== undefined && locked.source === now.source && locked.graph !== now.graph;
    })
    .map(([name]) => name)
    .sort();
}

/**
 * What is wrong between the committed goldens, the builder version and the lock, one sentence
 * each (none: they agree). Graph JSON that changed for unchanged spans under the locked version
 * comes first: that is a change of the graph without a new GRAPH_BUILDER_VERSION.
 */
export function versionLockProblems(options: { lock: VersionLock; goldens: GoldenHashes; version: number }): string[] {
  const { lock, goldens, version } = options;
  const problems: string[] = [];
  const changed = changedForSameSpans({ lock, goldens });
  if (changed.length > 0 && lock.graphBuilderVersion === version) {
    problems.push(`Graph JSON changed: bump GRAPH_BUILDER_VERSION in ${VERSION_FILE} and run ${REGENERATE} (${changed.length} golden(s) changed for unchanged spans: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}).`);
  }
  if (lock.graphBuilderVersion !== version) {
    problems.push(`GRAPH_BUILDER_VERSION is ${version} (${VERSION_FILE}) but ${VERSION_LOCK_FILE} records ${lock.graphBuilderVersion}: run ${REGENERATE} to record the goldens of version ${version}.`);
  }
  const stale = Object.keys(goldens).filter((name) => {
    const locked = lock.goldens[name];
    return !changed.includes(name) && (locked === undefined || locked.source !== goldens[name].source || locked.graph !== goldens[name].graph);
  });
  const gone = Object.keys(lock.goldens).filter((name) => goldens[name] === undefined);
  if (stale.length + gone.length > 0) {
    problems.push(`${VERSION_LOCK_FILE} does not match the goldens (${[...stale.map((name) => `${name} changed or new`), ...gone.map((name) => `${name} has no source any more`)].slice(0, 5).join('; ')}): run ${REGENERATE}.`);
  }
  return problems;
}
