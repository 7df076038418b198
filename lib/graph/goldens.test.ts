import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenSources, goldenText } from './__goldens__/golden-sources';

/**
 * The Graph JSON of every committed trace (fixtures and shipped traces) is pinned byte for byte,
 * so a refactor of the graph pipeline cannot change what users and the CLI get. An intended
 * change regenerates them, `npm run fixtures -- goldens` (version-lock.test.ts then asks for a new
 * GRAPH_BUILDER_VERSION when the graph of unchanged spans changed).
 */
describe('golden Graph JSON', () => {
  for (const source of goldenSources()) {
    it(`${path.basename(source.file)} draws exactly its golden graph`, async () => {
      const golden = readFileSync(path.join(process.cwd(), 'lib', 'graph', '__goldens__', source.golden), 'utf8');
      expect(await goldenText(source.file)).toBe(golden);
    });
  }
});
