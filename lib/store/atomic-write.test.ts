import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopscopeError } from '../errors';
import { writeFileAtomic } from './atomic-write';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'loopscope-atomic-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes and replaces a file, leaving no temp files behind', async () => {
    const target = path.join(folder, 'trace.json');
    await writeFileAtomic(target, '{"a":1}');
    await writeFileAtomic(target, new TextEncoder().encode('{"a":2}'));
    expect(await readFile(target, 'utf8')).toBe('{"a":2}');
    expect(await readdir(folder)).toEqual(['trace.json']);
  });

  it('keeps every concurrent write whole (last rename wins), with no temp files left', async () => {
    const target = path.join(folder, 'busy.json');
    const contents = Array.from({ length: 20 }, (_, index) => JSON.stringify({ index, padding: 'x'.repeat(10_000) }));
    await Promise.all(contents.map((content) => writeFileAtomic(target, content)));
    expect(contents).toContain(await readFile(target, 'utf8'));
    expect(await readdir(folder)).toEqual(['busy.json']);
  });

  it('with overwrite: false refuses an existing file and keeps it unchanged', async () => {
    const target = path.join(folder, 'saved.json');
    await writeFile(target, 'original');
    const error = await writeFileAtomic(target, 'new', { overwrite: false }).catch((caught: unknown) => caught);
    expect(LoopscopeError.isInstance(error) && error.code).toBe('ALREADY_EXISTS');
    expect(await readFile(target, 'utf8')).toBe('original');
    expect(await readdir(folder)).toEqual(['saved.json']);
    await writeFileAtomic(path.join(folder, 'fresh.json'), 'new', { overwrite: false });
    expect((await readdir(folder)).sort()).toEqual(['fresh.json', 'saved.json']);
  });

  it('removes its temp file when the rename fails', async () => {
    // Renaming a file over a non-empty folder fails after the temp file was written.
    const target = path.join(folder, 'occupied');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    const error = await writeFileAtomic(target, 'data').catch((caught: unknown) => caught);
    expect(LoopscopeError.isInstance(error) && error.code).toBe('INTERNAL');
    expect((error as Error).message).toContain(`Could not write ${target}`);
    expect(await readdir(folder)).toEqual(['occupied']);
  });

  it('fails clearly when the folder does not exist', async () => {
    const target = path.join(folder, 'missing', 'trace.json');
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow(`Could not write ${target}`);
  });
});
