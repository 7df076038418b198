import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The page side of the wire contract (issue 11): components draw what the server built —
 * Graph JSON, span views, resume contexts — and import their types from lib/contract. A
 * source check, beside the e2e test that draws every page with span requests blocked.
 */
const COMPONENTS = path.join(process.cwd(), 'components');
const sources = readdirSync(COMPONENTS)
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({ file, text: readFileSync(path.join(COMPONENTS, file), 'utf8') }));
const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]);

describe('components', () => {
  it('are many (the check reads the folder)', () => {
    expect(sources.length).toBeGreaterThan(20);
  });

  it('import only the contract and the pure lib/graph and lib/spans helpers — never the server, the runner, resume or replay code', () => {
    const upward = sources.flatMap(({ file, text }) => imports(text).filter((target) => /^@\/lib\/(server|runtime|resume|replay|cli)\//.test(target)).map((target) => `${file} → ${target}`));
    expect(upward).toEqual([]);
  });

  it('never build a run graph, classify a span or read a runtime attribute', () => {
    const offenders = sources.flatMap(({ file, text }) =>
      ['buildRunGraph', 'build-run-graph', 'classifySpan', 'classify-span', 'parseJsonAttribute', 'resumeContextFrom', "'genkit:", '"genkit:', '`genkit:']
        .filter((word) => text.includes(word))
        .map((word) => `${file}: ${word}`),
    );
    expect(offenders).toEqual([]);
  });
});
