import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * The file a genkit runtime in dev mode writes to `<dir>/.genkit/runtimes/` to be found by
 * dev tools (genkit's CLI; Loopscope's attach). Fields as genkit JS, Go 1.12 and Python 0.12
 * write them; `timestamp` is RFC 3339 with `_` for `:` in Go, ISO 8601 without a zone in Python.
 */
export const RuntimeFileSchema = z.object({
  id: z.string(),
  pid: z.number().int(),
  reflectionServerUrl: z.string().url(),
  timestamp: z.string(),
  genkitVersion: z.string().optional(),
  reflectionApiSpecVersion: z.number().int().optional(),
});
export type RuntimeFile = z.infer<typeof RuntimeFileSchema>;

export interface FoundRuntimeFile {
  path: string;
  runtime: RuntimeFile;
}

/** The runtime files under `<projectDir>/.genkit/runtimes/` that parse, optionally only those of one pid. */
export async function readRuntimeFiles(options: { projectDir: string; pid?: number }): Promise<FoundRuntimeFile[]> {
  const dir = path.join(options.projectDir, '.genkit', 'runtimes');
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: FoundRuntimeFile[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    try {
      const parsed = RuntimeFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success && (options.pid === undefined || parsed.data.pid === options.pid)) found.push({ path: file, runtime: parsed.data });
    } catch {
      // Half-written or foreign file: a runtime writes its file once; the next poll reads it whole.
    }
  }
  return found;
}

/** Polls for the runtime file of `pid` (every 50 ms) until it appears; rejects after `timeoutMs` or when `aborted()` says the process is gone. */
export async function waitForRuntimeFile(options: { projectDir: string; pid: number; timeoutMs?: number; aborted?: () => string | undefined }): Promise<FoundRuntimeFile> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const [found] = await readRuntimeFiles(options);
    if (found) return found;
    const reason = options.aborted?.();
    if (reason) throw new Error(`no runtime file from pid ${options.pid}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`no runtime file from pid ${options.pid} in ${path.join(options.projectDir, '.genkit', 'runtimes')} within ${options.timeoutMs ?? 20_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
