/**
 * Every document the repository's code and docs cite is in the repository: a `*.md` named in a
 * comment or a doc, and a Markdown link's target, resolve to a file of this repository (from the
 * citing file's folder or from the root). Comments once cited notes that never were in it
 * (upper-case names, a `../shared` folder beside the clone); the project's docs/ are what code
 * cites. Here rather than in a folder of its own because vitest collects tests under lib/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT_DIR = path.resolve(import.meta.dirname, '..');
/** This file names the retired documents to look for them: it is the one file not read. */
const THIS_FILE = path.relative(PROJECT_DIR, import.meta.filename).split(path.sep).join('/');
/** Code, docs, scripts and config: where a citation is written. Trace and fixture data is not read. */
const CITING_FILE = /\.(ts|tsx|js|mjs|cjs|go|md|css|sh|ya?ml)$/;
/** Notes that were never part of the repository, under whichever extension or section they are cited. */
const RETIRED = /\b(INTERRUPT-MODEL|AI-SDK-MODEL|GENKIT-GO|FRAMEWORKS|NEXT-NOTES|HOUSE|ARCHITECTURE)\b|\.\.\/shared\b/g;
/** A document's name or path: `docs/interrupt-model.md`, `../README.md`, `__fixtures__/README.md`; a URL's scheme is caught to skip it. */
const DOCUMENT = /([a-z][a-z+.-]*:\/\/)?[\w./@-]*[\w-]\.md(?![\w-])/gi;
/** A Markdown link or image: `[text](target)`. */
const MARKDOWN_LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

interface Citation {
  file: string;
  line: number;
  cited: string;
  problem: string;
}

/** The files of the repository: tracked, and new ones not ignored (what the next commit may hold). */
function repositoryFiles(): string[] {
  const output = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: PROJECT_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(output.split('\0').filter(Boolean))].sort();
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * The citations in one file's text that do not resolve to a file of the repository. `files` are
 * the repository's files (root-relative, `/`-separated). A name between quotes is a string in
 * code (a test's file name), not a citation.
 */
function unresolvedCitations(options: { file: string; text: string; files: ReadonlySet<string> }): Citation[] {
  const { file, text, files } = options;
  const folder = path.posix.dirname(file);
  const inRepository = (target: string, from: string) => {
    const resolved = path.posix.normalize(path.posix.join(from, target)).replace(/\/$/, '');
    if (resolved === '..' || resolved.startsWith('../')) return false;
    return files.has(resolved) || [...files].some((candidate) => candidate.startsWith(`${resolved}/`));
  };
  const resolves = (target: string) => inRepository(target, folder) || inRepository(target, '.');
  const problems: Citation[] = [];
  for (const match of text.matchAll(RETIRED)) {
    problems.push({ file, line: lineAt(text, match.index), cited: match[0], problem: 'a note that is not in the repository: cite docs/ instead' });
  }
  for (const match of text.matchAll(DOCUMENT)) {
    if (match[1]) continue;
    const before = text[match.index - 1];
    const after = text[match.index + match[0].length];
    if ((before === "'" || before === '"') && after === before) continue;
    // `[performance.md](../performance.md)`: the link text; the link itself is checked below.
    if (before === '[' && text.startsWith('](', match.index + match[0].length)) continue;
    if (!resolves(match[0])) problems.push({ file, line: lineAt(text, match.index), cited: match[0], problem: 'no such document in the repository' });
  }
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const target = decodeURI(match[1].split('#')[0]);
      if (!target || /^[a-z][a-z+.-]*:/i.test(match[1])) continue;
      if (!resolves(target)) problems.push({ file, line: lineAt(text, match.index), cited: match[1], problem: 'the link points at no file of the repository' });
    }
  }
  return problems;
}

describe('cited documents', () => {
  it('finds a retired note, a path beside the clone, a missing doc and a dead link; not a file name in a string', () => {
    const files = new Set(['docs/interrupt-model.md', 'docs/style.md', 'README.md', 'lib/a/__fixtures__/README.md', 'lib/a/b.ts']);
    const text = [
      '// genkit mutates messages (INTERRUPT-MODEL.md bug 3), see ../shared/notes and NEXT-NOTES §2.',
      '// docs/interrupt-model.md §7 and __fixtures__/README.md are here; docs/nope.md is not.',
      "await writeSaved('notes.md', '# not a trace'); // https://example.com/elsewhere.md",
    ].join('\n');
    expect(unresolvedCitations({ file: 'lib/a/b.ts', text, files }).map(({ line, cited }) => ({ line, cited }))).toEqual([
      { line: 1, cited: 'INTERRUPT-MODEL' },
      { line: 1, cited: '../shared' },
      { line: 1, cited: 'NEXT-NOTES' },
      { line: 1, cited: 'INTERRUPT-MODEL.md' },
      { line: 2, cited: 'docs/nope.md' },
    ]);
    const doc = '[style](style.md), [readme](../README.md#benchmarks), [gone](gone.md), [out](../../x.ts), [web](https://example.com/a.md)';
    expect(unresolvedCitations({ file: 'docs/interrupt-model.md', text: doc, files }).map(({ cited }) => cited)).toEqual(['gone.md', 'gone.md', '../../x.ts']);
  });

  it('every document cited by a file of the repository is in the repository', () => {
    const all = repositoryFiles();
    const files = new Set(all);
    expect(files.has('docs/interrupt-model.md')).toBe(true);
    const problems = all
      .filter((file) => CITING_FILE.test(file) && file !== THIS_FILE)
      .flatMap((file) => unresolvedCitations({ file, text: readFileSync(path.join(PROJECT_DIR, file), 'utf8'), files }));
    expect(problems).toEqual([]);
  });
});
