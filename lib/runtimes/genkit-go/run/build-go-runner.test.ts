import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGoRunner } from './go-runner';

/** A Go tool that does not compile is named by file and line, relative to the project (the server shows it as a load problem). */
let project: string | undefined;
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('building the genkit Go runner', () => {
  it('a compile error in tools/go/ names the file and line', async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-build-'));
    await cp(path.join(process.cwd(), 'go'), path.join(project, 'go'), { recursive: true });
    await cp(path.join(process.cwd(), 'tools', 'go'), path.join(project, 'tools', 'go'), { recursive: true });
    const bank = path.join(project, 'tools', 'go', 'bank.go');
    const source = await readFile(bank, 'utf8');
    const lines = source.split('\n');
    const at = lines.findIndex((line) => line.includes('if in.AmountUsd > approvalLimitUsd'));
    lines[at] = '\t\tif in.AmountUsd > "100" {';
    await writeFile(bank, lines.join('\n'));
    await expect(buildGoRunner({ projectDir: project })).rejects.toThrow(new RegExp(`The genkit Go runner does not compile:\\n(.|\\n)*tools/go/bank\\.go:${at + 1}:\\d+: `));
  }, 600_000);
});
