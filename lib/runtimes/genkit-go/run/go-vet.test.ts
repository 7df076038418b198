import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * `go vet ./...` of every Go module of the project (the runner, the Go tools, the bench program,
 * the example app, and any module added later: every go.mod outside dependency and build
 * folders), so `npm test` catches what the Go compiler lets through. Here rather than in
 * `npm run lint` because vet compiles: the modules come from the Go proxy on a fresh machine, and
 * the build cache go/runner's own tests use (go-runner-protocol.test.ts) makes a rerun cheap.
 */
const PROJECT_DIR = process.cwd();
/** Folders no module of ours is in: packages, build output, data, and every dot folder. */
const NOT_OURS = new Set(['node_modules', 'test-results', 'playwright-report']);

function goModules(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && entry.name === 'go.mod') ? [path.relative(PROJECT_DIR, dir) || '.'] : [];
  return [
    ...here,
    ...entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_OURS.has(entry.name)).flatMap((entry) => goModules(path.join(dir, entry.name))),
  ];
}

const modules = goModules(PROJECT_DIR).sort();

describe('go vet', () => {
  it('finds the Go modules of the project', () => {
    expect(modules).toEqual(expect.arrayContaining(['bench/go/bare', 'examples/apps/genkit-go', 'go/runner', 'tools/go']));
  });

  for (const module of modules) {
    it(`${module}: go vet ./... reports nothing`, async () => {
      const vet = await promisify(execFile)('go', ['vet', './...'], { cwd: path.join(PROJECT_DIR, module), timeout: 600_000, maxBuffer: 8 << 20 }).then(
        () => '',
        (error: { stderr?: string; stdout?: string; message: string }) => `${error.stderr ?? ''}${error.stdout ?? ''}`.trim() || error.message,
      );
      expect(vet, `go vet ./... in ${module}`).toBe('');
    }, 600_000);
  }
});
