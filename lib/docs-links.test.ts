import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link and image in README.md and docs/ points at a file of the repository: a doc
 * moved or renamed without its links fails here (anchors are not checked, only files).
 */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

describe('documentation links', () => {
  const files = ['README.md', ...markdownFiles('docs')];
  it.each(files)('%s links only to files that exist', (file) => {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const match of text.matchAll(LINK)) {
      const target = match[1];
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      const file_ = target.split('#')[0];
      if (!existsSync(path.resolve(path.dirname(file), decodeURIComponent(file_)))) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it('keeps the README a front door of at most 150 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(150);
  });
});
