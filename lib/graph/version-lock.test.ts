import { describe, expect, it } from 'vitest';
import { goldenHashes, readVersionLock, versionLockOf, versionLockProblems, type GoldenHashes } from './__goldens__/version-lock';
import { GRAPH_BUILDER_VERSION } from './graph-builder-version';

/**
 * Graph JSON is cached under GRAPH_BUILDER_VERSION, so a change of the graph for the same spans
 * must come with a new version: lib/graph/__goldens__/version-lock.json records the version the
 * goldens were made with and, per golden, the hashes of its trace and of its Graph JSON.
 */
describe('the goldens and GRAPH_BUILDER_VERSION', () => {
  it('the committed goldens, GRAPH_BUILDER_VERSION and version-lock.json agree', () => {
    const projectDir = process.cwd();
    expect(versionLockProblems({ lock: readVersionLock(projectDir), goldens: goldenHashes(projectDir), version: GRAPH_BUILDER_VERSION })).toEqual([]);
  });
});

describe('versionLockProblems', () => {
  const made: GoldenHashes = {
    'fixture-a.graph.json': { source: 'span-a', graph: 'graph-a' },
    'fixture-b.graph.json': { source: 'span-b', graph: 'graph-b' },
  };
  const lock = versionLockOf({ version: 5, goldens: made });

  it('agrees with the goldens it was made from', () => {
    expect(versionLockProblems({ lock, goldens: made, version: 5 })).toEqual([]);
  });

  it('a golden that changed for the same spans, the version kept, asks for a bump', () => {
    const goldens = { ...made, 'fixture-b.graph.json': { source: 'span-b', graph: 'graph-b-new' } };
    const problems = versionLockProblems({ lock, goldens, version: 5 });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Graph JSON changed: bump GRAPH_BUILDER_VERSION in lib\/graph\/graph-builder-version\.ts and run npm run fixtures -- goldens \(1 golden\(s\) changed for unchanged spans: fixture-b\.graph\.json\)\.$/);
  });

  it('a bumped version with the lock not updated asks to record it, and does not ask for another bump', () => {
    const goldens = { ...made, 'fixture-b.graph.json': { source: 'span-b', graph: 'graph-b-new' } };
    const problems = versionLockProblems({ lock, goldens, version: 6 });
    expect(problems).toEqual([expect.stringContaining('GRAPH_BUILDER_VERSION is 6 (lib/graph/graph-builder-version.ts) but lib/graph/__goldens__/version-lock.json records 5: run npm run fixtures -- goldens')]);
    expect(versionLockProblems({ lock: versionLockOf({ version: 6, goldens }), goldens, version: 6 })).toEqual([]);
  });

  it('the version bumped with no golden changed is still to be recorded', () => {
    expect(versionLockProblems({ lock, goldens: made, version: 6 })).toEqual([expect.stringMatching(/^GRAPH_BUILDER_VERSION is 6 .* records 5/)]);
  });

  it('a golden that changed because its trace changed (a regenerated fixture) needs no bump, only the lock', () => {
    const goldens = { ...made, 'fixture-a.graph.json': { source: 'span-a-regenerated', graph: 'graph-a-new' } };
    const problems = versionLockProblems({ lock, goldens, version: 5 });
    expect(problems).toEqual([expect.stringContaining('version-lock.json does not match the goldens (fixture-a.graph.json changed or new): run npm run fixtures -- goldens')]);
    expect(problems.join(' ')).not.toContain('bump');
    expect(versionLockProblems({ lock: versionLockOf({ version: 5, goldens }), goldens, version: 5 })).toEqual([]);
  });

  it('a new golden or a golden whose source is gone is a lock not updated', () => {
    const added = { ...made, 'fixture-c.graph.json': { source: 'span-c', graph: 'graph-c' } };
    expect(versionLockProblems({ lock, goldens: added, version: 5 })).toEqual([expect.stringContaining('(fixture-c.graph.json changed or new)')]);
    const { 'fixture-b.graph.json': _gone, ...removed } = made;
    expect(versionLockProblems({ lock, goldens: removed, version: 5 })).toEqual([expect.stringContaining('(fixture-b.graph.json has no source any more)')]);
  });

  it('a golden file not made yet is a lock not updated, not a graph change', () => {
    const goldens = { ...made, 'fixture-a.graph.json': { source: 'span-a', graph: undefined } };
    expect(versionLockProblems({ lock, goldens, version: 5 })).toEqual([expect.stringContaining('(fixture-a.graph.json changed or new)')]);
    expect(() => versionLockOf({ version: 5, goldens })).toThrow('lib/graph/__goldens__/fixture-a.graph.json does not exist: run npm run fixtures -- goldens.');
  });
});
