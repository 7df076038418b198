/**
 * The trace store: captured traces under `dataDir/traces/<traceId>.json` (OTLP JSON) with an
 * index `dataDir/index.json`, and named saved files in `savedDir` (the repo's `traces/`).
 *
 * The index is kept in memory and rewritten after each change, so listing never re-reads
 * trace files. Every write is atomic (temp file + rename). Saved files are only ever
 * created (or replaced on request) by `save`; everything else only reads them.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage, LoopscopeError } from '../errors';
import { writeFileAtomic } from './atomic-write';
import { parseTraceText } from './load-trace-file';
import { mergeSpans } from './merge-spans';
import { decodeOtlpJson, encodeOtlpJson } from './otlp-json';
import type { Span } from './span';
import { summarizeTrace, type TraceSummary } from './summarize-trace';

export interface TraceStoreOptions {
  /** Captured traces and indexes (`.loopscope/` by default). */
  dataDir: string;
  /** Named saved trace files (`traces/`). */
  savedDir: string;
  /** How a captured trace is summarized for the index (default `summarizeTrace`). */
  summarize?: (traceId: string, spans: Span[]) => TraceSummary;
}

/** One file of the saved-traces folder, as listed. A file that cannot be read carries `error`. */
export interface SavedTraceFile {
  /** File name inside the saved folder, e.g. `interrupt-bug.json`. */
  file: string;
  traceIds: string[];
  /** Name of the earliest trace in the file (the file name when it cannot be read). */
  name: string;
  /** Milliseconds since the epoch of the earliest span (0 when unreadable). */
  startTime: number;
  spanCount: number;
  /** `error` if any trace failed (or the file is unreadable), else the latest trace's status. */
  status: TraceSummary['status'];
  /** A top-level `"description"` string of the JSON object (OTLP readers ignore extra fields). */
  description?: string;
  /** Why the file could not be read; such files are listed, never modified. */
  error?: string;
}

const StatusSchema = z.enum(['ok', 'error', 'interrupted', 'incomplete']);
const TraceSummarySchema: z.ZodType<TraceSummary> = z.object({
  traceId: z.string(),
  name: z.string(),
  startTime: z.number(),
  endTime: z.number().optional(),
  spanCount: z.number(),
  models: z.array(z.string()),
  status: StatusSchema,
  errorMessage: z.string().optional(),
  serviceName: z.string().optional(),
  sessionKeys: z.object({ interrupted: z.array(z.string()), resumes: z.array(z.string()) }).optional(),
});
const IndexFileSchema = z.object({ version: z.literal(1), traces: z.array(TraceSummarySchema) });
const SavedTraceFileSchema: z.ZodType<SavedTraceFile> = z.object({
  file: z.string(),
  traceIds: z.array(z.string()),
  name: z.string(),
  startTime: z.number(),
  spanCount: z.number(),
  status: StatusSchema,
  description: z.string().optional(),
  error: z.string().optional(),
});
const SavedCacheEntrySchema = z.object({ size: z.number(), mtimeMs: z.number(), entry: SavedTraceFileSchema });
const SavedIndexFileSchema = z.object({ version: z.literal(1), files: z.array(SavedCacheEntrySchema) });
type SavedCacheEntry = z.infer<typeof SavedCacheEntrySchema>;

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const NANOS = /^(0|[1-9]\d{0,19})$/;
const MAX_NAME_LENGTH = 100;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function newestFirst<T extends { startTime: number }>(key: (item: T) => string) {
  return (a: T, b: T) => b.startTime - a.startTime || key(a).localeCompare(key(b));
}

/**
 * The file name a saved-trace name maps to. Only `[A-Za-z0-9._-]`, 1–100 characters, no
 * leading dot and no `..`, so a name from a request can never leave the saved folder.
 * `.json` is appended unless the name already ends in `.json` (or `.jsonl` when reading).
 * @throws LoopscopeError INVALID_ARGUMENT
 */
export function savedTraceFileName(name: string, options: { allowJsonl?: boolean } = {}): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new LoopscopeError('INVALID_ARGUMENT', `A saved trace name must be 1 to ${MAX_NAME_LENGTH} characters long.`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.includes('..')) {
    throw new LoopscopeError(
      'INVALID_ARGUMENT',
      `Invalid saved trace name ${JSON.stringify(name)}: use only letters, digits, ".", "_" and "-", without ".." or folders.`,
    );
  }
  if (name.startsWith('.')) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid saved trace name ${JSON.stringify(name)}: it must not start with a dot.`);
  if (/\.json$/i.test(name) || (options.allowJsonl && /\.jsonl$/i.test(name))) return name;
  return `${name}.json`;
}

/**
 * Checks spans handed to `append` before anything is written: ids and times decide file
 * names and ordering, so a malformed one must never reach the disk.
 */
function assertValidSpans(spans: readonly Span[]): void {
  if (!Array.isArray(spans)) throw new LoopscopeError('INVALID_ARGUMENT', 'Invalid spans: expected an array of spans.');
  spans.forEach((span, index) => {
    const problem =
      (!TRACE_ID.test(span?.traceId) || /^0+$/.test(span.traceId) ? 'traceId: expected 32 lowercase hex characters, not all zeros' : undefined) ??
      (!SPAN_ID.test(span.spanId) || /^0+$/.test(span.spanId) ? 'spanId: expected 16 lowercase hex characters, not all zeros' : undefined) ??
      (span.parentSpanId !== undefined && !SPAN_ID.test(span.parentSpanId) ? 'parentSpanId: expected 16 lowercase hex characters' : undefined) ??
      (!NANOS.test(span.startTimeUnixNano) ? 'startTimeUnixNano: expected a decimal string of nanoseconds' : undefined) ??
      (span.endTimeUnixNano !== undefined && !NANOS.test(span.endTimeUnixNano) ? 'endTimeUnixNano: expected a decimal string of nanoseconds' : undefined);
    if (problem) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid span at spans[${index}].${problem}.`);
  });
}

function groupByTrace(spans: readonly Span[]): Map<string, Span[]> {
  const groups = new Map<string, Span[]>();
  for (const span of spans) {
    const group = groups.get(span.traceId);
    if (group) group.push(span);
    else groups.set(span.traceId, [span]);
  }
  return groups;
}

function encodeTrace(traceId: string, spans: readonly Span[]): string {
  try {
    return JSON.stringify(encodeOtlpJson(spans));
  } catch (error) {
    throw new LoopscopeError('INVALID_ARGUMENT', `Trace ${traceId} has spans that cannot be encoded: ${errorMessage(error)}`, { cause: error });
  }
}

/** Summary of a saved file's spans; see `SavedTraceFile.status` for how traces combine. */
function describeSavedSpans(file: string, spans: Span[], description: string | undefined): SavedTraceFile {
  const summaries = [...groupByTrace(spans)].map(([traceId, traceSpans]) => summarizeTrace(traceId, traceSpans));
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
  return entry;
}

function topLevelDescription(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    const description = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { description?: unknown }).description : undefined;
    return typeof description === 'string' ? description : undefined;
  } catch {
    return undefined; // JSONL: no single top-level object to describe it
  }
}

export class TraceStore {
  /** Problems met while rebuilding the index (corrupt trace files are skipped, never deleted). */
  readonly warnings: string[] = [];
  private readonly tracesDir: string;
  private readonly indexPath: string;
  private readonly savedIndexPath: string;
  private readonly savedDir: string;
  // Two queues: appends (trace files + index) and saved listing (saved-index.json) never
  // call each other, so neither can wait on itself.
  private appendQueue: Promise<unknown> = Promise.resolve();
  private savedQueue: Promise<unknown> = Promise.resolve();
  private index?: Promise<Map<string, TraceSummary>>;
  private savedCache?: Map<string, SavedCacheEntry>;

  private readonly summarize: (traceId: string, spans: Span[]) => TraceSummary;

  constructor(options: TraceStoreOptions) {
    this.tracesDir = path.join(options.dataDir, 'traces');
    this.indexPath = path.join(options.dataDir, 'index.json');
    this.savedIndexPath = path.join(options.dataDir, 'saved-index.json');
    this.savedDir = options.savedDir;
    this.summarize = options.summarize ?? summarizeTrace;
  }

  /**
   * Adds spans, merging each trace with what is stored (`mergeSpans`). Batches are applied
   * one at a time, so concurrent batches of one trace never lose spans.
   * @throws LoopscopeError INVALID_ARGUMENT for malformed spans (nothing is written).
   */
  async append(spans: Span[]): Promise<{ traceIds: string[] }> {
    assertValidSpans(spans);
    return this.enqueue('append', async () => {
      const index = await this.loadIndex();
      const groups = groupByTrace(spans);
      // Read and encode everything first: a bad stored file or span fails before any write.
      const writes: Array<{ traceId: string; spans: Span[]; text: string }> = [];
      for (const [traceId, incoming] of groups) {
        const merged = mergeSpans((await this.readCaptured(traceId)) ?? [], incoming);
        writes.push({ traceId, spans: merged, text: encodeTrace(traceId, merged) });
      }
      if (writes.length === 0) return { traceIds: [] };
      await mkdir(this.tracesDir, { recursive: true });
      for (const write of writes) {
        // Captured traces are rewritten per batch: atomic, without fsync (see writeFileAtomic).
        await writeFileAtomic(this.tracePath(write.traceId), write.text, { durable: false });
        index.set(write.traceId, this.summarize(write.traceId, write.spans));
      }
      await this.writeIndex(index);
      return { traceIds: [...groups.keys()] };
    });
  }

  /** Summaries of the captured traces, newest first, from the in-memory index. */
  async list(): Promise<TraceSummary[]> {
    const index = await this.loadIndex();
    return [...index.values()].sort(newestFirst((summary) => summary.traceId));
  }

  /**
   * The spans of a trace: the captured copy first, else the first saved file holding it.
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async get(traceId: string): Promise<Span[] | undefined> {
    const id = typeof traceId === 'string' ? traceId.toLowerCase() : '';
    if (!TRACE_ID.test(id)) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid trace id ${JSON.stringify(traceId)}: expected 32 hex characters.`);
    const captured = await this.readCaptured(id);
    if (captured) return captured;
    for (const saved of await this.listSaved()) {
      if (!saved.traceIds.includes(id)) continue;
      const spans = (await this.loadSaved(saved.file)).filter((span) => span.traceId === id);
      if (spans.length > 0) return spans;
    }
    return undefined;
  }

  /**
   * Writes the spans of the given traces to `savedDir/<name>.json` (pretty OTLP JSON, for diffs).
   * @returns the file name inside the saved folder.
   * @throws LoopscopeError INVALID_ARGUMENT (bad name or ids), NOT_FOUND (unknown ids), ALREADY_EXISTS.
   */
  async save(options: { traceIds: string[]; name: string; overwrite?: boolean }): Promise<{ file: string }> {
    const file = savedTraceFileName(options.name);
    if (options.traceIds.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'Choose at least one trace to save.');
    const spans: Span[] = [];
    const missing: string[] = [];
    for (const traceId of new Set(options.traceIds.map((id) => id.toLowerCase()))) {
      const traceSpans = await this.get(traceId);
      if (traceSpans) spans.push(...traceSpans);
      else missing.push(traceId);
    }
    if (missing.length > 0) throw new LoopscopeError('NOT_FOUND', `Unknown trace id${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`);
    await mkdir(this.savedDir, { recursive: true });
    try {
      await writeFileAtomic(path.join(this.savedDir, file), `${JSON.stringify(encodeOtlpJson(spans), null, 2)}\n`, { overwrite: options.overwrite ?? false });
    } catch (error) {
      if (LoopscopeError.isInstance(error) && error.code === 'ALREADY_EXISTS') {
        throw new LoopscopeError('ALREADY_EXISTS', `A saved trace named ${file} already exists; choose another name or overwrite it.`, { cause: error });
      }
      throw error;
    }
    return { file };
  }

  /**
   * Every `*.json` / `*.jsonl` file of the saved folder, newest first. Parsed results are
   * cached in `dataDir/saved-index.json` by name + size + mtime: only new or changed files
   * are read. Unreadable files are listed with `error`.
   */
  async listSaved(): Promise<SavedTraceFile[]> {
    return this.enqueue('saved', async () => {
      const cache = await this.loadSavedCache();
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
        next.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, entry: await this.describeSavedFile(file) });
        changed = true;
      }
      if (changed || next.size !== cache.size) {
        await mkdir(path.dirname(this.savedIndexPath), { recursive: true });
        await writeFileAtomic(this.savedIndexPath, JSON.stringify({ version: 1, files: [...next.values()] }));
      }
      this.savedCache = next;
      return [...next.values()].map((cached) => cached.entry).sort(newestFirst((entry) => entry.file));
    });
  }

  /**
   * The spans of one saved file (any supported format).
   * @throws LoopscopeError INVALID_ARGUMENT (bad name or content), NOT_FOUND.
   */
  async loadSaved(file: string): Promise<Span[]> {
    const name = savedTraceFileName(file, { allowJsonl: true });
    let text: string;
    try {
      text = await readFile(path.join(this.savedDir, name), 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new LoopscopeError('NOT_FOUND', `No saved trace file named ${name}.`, { cause: error });
      throw new LoopscopeError('INTERNAL', `Could not read saved trace ${name}: ${errorMessage(error)}`, { cause: error });
    }
    return parseTraceText(text, name);
  }

  private enqueue<T>(queue: 'append' | 'saved', task: () => Promise<T>): Promise<T> {
    const previous = queue === 'append' ? this.appendQueue : this.savedQueue;
    const result = previous.then(task);
    // A failed task must not block the ones queued after it.
    const settled = result.catch(() => undefined);
    if (queue === 'append') this.appendQueue = settled;
    else this.savedQueue = settled;
    return result;
  }

  private tracePath(traceId: string): string {
    return path.join(this.tracesDir, `${traceId}.json`);
  }

  /** The stored spans of a captured trace, undefined when there is none. */
  private async readCaptured(traceId: string): Promise<Span[] | undefined> {
    let text: string;
    try {
      text = await readFile(this.tracePath(traceId), 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw new LoopscopeError('INTERNAL', `Could not read captured trace ${traceId}: ${errorMessage(error)}`, { cause: error });
    }
    try {
      return decodeOtlpJson(JSON.parse(text));
    } catch (error) {
      throw new LoopscopeError('FAILED_PRECONDITION', `The captured trace file ${this.tracePath(traceId)} is corrupt (${errorMessage(error)}); it was left in place.`, {
        cause: error,
      });
    }
  }

  private loadIndex(): Promise<Map<string, TraceSummary>> {
    this.index ??= this.readOrRebuildIndex().catch((error: unknown) => {
      this.index = undefined; // let the next call retry instead of caching the failure
      throw error;
    });
    return this.index;
  }

  private async readOrRebuildIndex(): Promise<Map<string, TraceSummary>> {
    let text: string | undefined;
    try {
      text = await readFile(this.indexPath, 'utf8');
      const parsed = IndexFileSchema.parse(JSON.parse(text));
      return new Map(parsed.traces.map((summary) => [summary.traceId, summary]));
    } catch (error) {
      if (text !== undefined) this.warnings.push(`${this.indexPath} was unreadable (${errorMessage(error)}); rebuilt it from the trace files.`);
    }
    const index = new Map<string, TraceSummary>();
    let files: string[] = [];
    try {
      files = (await readdir(this.tracesDir)).filter((file) => /^[0-9a-f]{32}\.json$/.test(file)).sort();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new LoopscopeError('INTERNAL', `Could not list ${this.tracesDir}: ${errorMessage(error)}`, { cause: error });
    }
    for (const file of files) {
      const traceId = file.slice(0, 32);
      try {
        const spans = (await this.readCaptured(traceId)) ?? [];
        index.set(traceId, this.summarize(traceId, spans));
      } catch (error) {
        this.warnings.push(`Skipped ${path.join(this.tracesDir, file)}: ${errorMessage(error)}`);
      }
    }
    // Nothing to record for an empty store: leave the folder untouched.
    if (files.length > 0 || text !== undefined) await this.writeIndex(index);
    return index;
  }

  private async writeIndex(index: Map<string, TraceSummary>): Promise<void> {
    const traces = [...index.values()].sort(newestFirst((summary) => summary.traceId));
    await mkdir(path.dirname(this.indexPath), { recursive: true });
    await writeFileAtomic(this.indexPath, JSON.stringify({ version: 1, traces }), { durable: false });
  }

  private async loadSavedCache(): Promise<Map<string, SavedCacheEntry>> {
    if (this.savedCache) return this.savedCache;
    try {
      const parsed = SavedIndexFileSchema.parse(JSON.parse(await readFile(this.savedIndexPath, 'utf8')));
      return new Map(parsed.files.map((cached) => [cached.entry.file, cached]));
    } catch {
      return new Map(); // missing or stale format: every saved file is simply read again
    }
  }

  private async describeSavedFile(file: string): Promise<SavedTraceFile> {
    try {
      const text = await readFile(path.join(this.savedDir, file), 'utf8');
      return describeSavedSpans(file, parseTraceText(text, file), topLevelDescription(text));
    } catch (error) {
      const name = file.replace(/\.jsonl?$/i, '');
      return { file, traceIds: [], name, startTime: 0, spanCount: 0, status: 'error', error: errorMessage(error) };
    }
  }
}
