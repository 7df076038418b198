/**
 * The saved-traces folder (the repo's `traces/`): named trace files that are only ever
 * created (or replaced on request) by `write`; everything else only reads them.
 *
 * Listing caches what it parsed in `saved-index.json` by name + size + mtime, so only new
 * or changed files are read again.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage, LoopscopeError } from '../errors';
import { writeFileAtomic } from './atomic-write';
import { boundedSavedFile } from '../spans/bounded-summary';
import { parseTraceText } from './load-trace-file';
import { encodeOtlpJson } from '../spans/otlp-json';
import { parseJsonLimited, tryParseJsonLimited } from '../spans/parse-json-limited';
import { readTextFile } from './read-text-file';
import type { Span } from '../spans/span';
import { summarizeTrace, type TraceSummary } from '../spans/summarize-trace';
import { savedTraceFileName } from '../spans/saved-trace-name';
import { SavedTraceFileSchema, type SavedTraceFile } from '../spans/trace-index-rows';

export { savedTraceFileName };
export type { SavedTraceFile };

const SavedCacheEntrySchema = z.object({ size: z.number(), mtimeMs: z.number(), entry: SavedTraceFileSchema });
/** Version 2: names, descriptions and errors bounded (bounded-summary.ts); a cache of another version is read again. */
const SAVED_INDEX_VERSION = 2;
const SavedIndexFileSchema = z.object({ version: z.literal(SAVED_INDEX_VERSION), files: z.array(SavedCacheEntrySchema) });
type SavedCacheEntry = z.infer<typeof SavedCacheEntrySchema>;


/** The `code` of a Node.js file-system error (`ENOENT`, …), if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A comparator: latest `startTime` first, ties broken by `key` for a stable order. */
export function newestFirst<T extends { startTime: number }>(key: (item: T) => string) {
  return (a: T, b: T) => b.startTime - a.startTime || key(a).localeCompare(key(b));
}

/** The spans grouped by trace id, in order of first appearance. */
export function groupByTrace(spans: readonly Span[]): Map<string, Span[]> {
  const groups = new Map<string, Span[]>();
  for (const span of spans) {
    const group = groups.get(span.traceId);
    if (group) group.push(span);
    else groups.set(span.traceId, [span]);
  }
  return groups;
}

/** Summary of a saved file's spans; see `SavedTraceFile.status` for how traces combine. */
function describeSavedSpans(options: { file: string; spans: Span[]; description: string | undefined; summarize: Summarize }): SavedTraceFile {
  const { file, spans, description } = options;
  const summaries = [...groupByTrace(spans)].map(([traceId, traceSpans]) => options.summarize(traceId, traceSpans));
  const byStart = [...summaries].sort((a, b) => a.startTime - b.startTime);
  const entry: SavedTraceFile = {
    file,
    traceIds: summaries.map((summary) => summary.traceId),
    name: byStart[0]?.name ?? file.replace(/\.jsonl?$/i, ''),
    startTime: byStart[0]?.startTime ?? 0,
    spanCount: spans.length,
    status: summaries.some((summary) => summary.status === 'error') ? 'error' : (byStart.at(-1)?.status ?? 'incomplete'),
  };
  if (description !== undefined) entry.description = description;
  return boundedSavedFile(entry);
}

function topLevelDescription(text: string): string | undefined {
  const parsed = tryParseJsonLimited(text);
  if (!parsed.ok) return undefined; // JSONL: no single top-level object to describe it
  const value = parsed.value;
  const description = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { description?: unknown }).description : undefined;
  return typeof description === 'string' ? description : undefined;
}

type Summarize = (traceId: string, spans: Span[]) => TraceSummary;

/** The saved-traces folder and its listing cache; `TraceStore` delegates to it. */
export class SavedTraces {
  private readonly savedDir: string;
  private readonly savedIndexPath: string;
  // Listing is serialized on its own queue (never the store's append queue): two listings
  // at once would race on saved-index.json.
  private queue: Promise<unknown> = Promise.resolve();
  private cache?: Map<string, SavedCacheEntry>;

  private readonly summarize: Summarize;

  /** `summarize`: how each trace of a file is summarized (the store's summarizer; OpenTelemetry fields only by default). */
  constructor(options: { savedDir: string; savedIndexPath: string; summarize?: Summarize }) {
    this.savedDir = options.savedDir;
    this.savedIndexPath = options.savedIndexPath;
    this.summarize = options.summarize ?? ((traceId, spans) => summarizeTrace({ traceId, spans }));
  }

  /**
   * Writes spans to `savedDir/<file>` (pretty OTLP JSON, for diffs); `file` must come from
   * `savedTraceFileName`.
   * @throws LoopscopeError ALREADY_EXISTS unless `overwrite`.
   */
  async write(options: { file: string; spans: readonly Span[]; overwrite: boolean }): Promise<void> {
    await mkdir(this.savedDir, { recursive: true });
    try {
      await writeFileAtomic(path.join(this.savedDir, options.file), `${JSON.stringify(encodeOtlpJson(options.spans), null, 2)}\n`, { overwrite: options.overwrite });
    } catch (error) {
      if (LoopscopeError.isInstance(error) && error.code === 'ALREADY_EXISTS') {
        throw new LoopscopeError('ALREADY_EXISTS', `A saved trace named ${options.file} already exists; choose another name or overwrite it.`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * Every `*.json` / `*.jsonl` file of the folder, newest first, parsing only files that
   * are new or changed since the cached listing. Unreadable files are listed with `error`.
   */
  list(): Promise<SavedTraceFile[]> {
    const result = this.queue.then(() => this.listNow());
    // A failed listing must not block the ones queued after it.
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * The spans of one saved file (any supported format).
   * @throws LoopscopeError INVALID_ARGUMENT (bad name or content), NOT_FOUND.
   */
  async load(file: string): Promise<Span[]> {
    const name = savedTraceFileName(file, { allowJsonl: true });
    let text: string;
    try {
      text = await readTextFile(path.join(this.savedDir, name));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new LoopscopeError('NOT_FOUND', `No saved trace file named ${name}.`, { cause: error });
      throw new LoopscopeError('INTERNAL', `Could not read saved trace ${name}: ${errorMessage(error)}`, { cause: error });
    }
    return parseTraceText(text, name);
  }

  private async listNow(): Promise<SavedTraceFile[]> {
    const cache = await this.loadCache();
    let names: string[] = [];
    try {
      names = await readdir(this.savedDir);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new LoopscopeError('INTERNAL', `Could not list ${this.savedDir}: ${errorMessage(error)}`, { cause: error });
    }
    const next = new Map<string, SavedCacheEntry>();
    let changed = false;
    for (const file of names.filter((name) => /\.jsonl?$/i.test(name) && !name.startsWith('.')).sort()) {
      const stats = await stat(path.join(this.savedDir, file)).catch(() => undefined);
      if (!stats?.isFile()) continue; // vanished since readdir, or a folder
      const cached = cache.get(file);
      if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs) {
        next.set(file, cached);
        continue;
      }
      next.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, entry: await this.describeFile(file) });
      changed = true;
    }
    if (changed || next.size !== cache.size) {
      await mkdir(path.dirname(this.savedIndexPath), { recursive: true });
      await writeFileAtomic(this.savedIndexPath, JSON.stringify({ version: SAVED_INDEX_VERSION, files: [...next.values()] }));
    }
    this.cache = next;
    return [...next.values()].map((cached) => cached.entry).sort(newestFirst((entry) => entry.file));
  }

  private async loadCache(): Promise<Map<string, SavedCacheEntry>> {
    if (this.cache) return this.cache;
    try {
      const parsed = SavedIndexFileSchema.parse(parseJsonLimited(await readTextFile(this.savedIndexPath), { what: 'The saved index' }));
      return new Map(parsed.files.map((cached) => [cached.entry.file, cached]));
    } catch {
      return new Map(); // missing or stale format: every saved file is simply read again
    }
  }

  private async describeFile(file: string): Promise<SavedTraceFile> {
    try {
      const text = await readTextFile(path.join(this.savedDir, file));
      return describeSavedSpans({ file, spans: parseTraceText(text, file), description: topLevelDescription(text), summarize: this.summarize });
    } catch (error) {
      const name = file.replace(/\.jsonl?$/i, '');
      return boundedSavedFile({ file, traceIds: [], name, startTime: 0, spanCount: 0, status: 'error', error: errorMessage(error) });
    }
  }
}
