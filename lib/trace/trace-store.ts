/**
 * The trace store: captured traces under `dataDir/traces/<traceId>.json` (OTLP JSON) with an
 * index `dataDir/index.json`, and named saved files in `savedDir` (the repo's `traces/`).
 *
 * The index is kept in memory and rewritten after each change, so listing never re-reads
 * trace files. Every write is atomic (temp file + rename). The saved folder is handled by
 * `SavedTraces` (saved-traces.ts), which this store delegates to.
 */
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage, LoopscopeError } from '../errors';
import { writeFileAtomic } from './atomic-write';
import { mergeSpans } from './merge-spans';
import { decodeOtlpJson, encodeOtlpJson } from './otlp-json';
import { parseJsonLimited } from './parse-json-limited';
import { readTextFile } from './read-text-file';
import { errorCode, groupByTrace, newestFirst, SavedTraces, savedTraceFileName, type SavedTraceFile } from './saved-traces';
import { isUnixNanoText, type Span } from './span';
import { summarizeTrace, type TraceSummary } from './summarize-trace';
import { TraceSummarySchema } from './trace-index-rows';

// Importers of the store keep getting the saved-folder names from here.
export { savedTraceFileName, type SavedTraceFile };

export interface TraceStoreOptions {
  /** Captured traces and indexes (`.loopscope/` by default). */
  dataDir: string;
  /** Named saved trace files (`traces/`). */
  savedDir: string;
  /** How a trace is summarized for the indexes (default `summarizeTrace`, OpenTelemetry fields only; the server passes the dialects'). */
  summarize?: (traceId: string, spans: Span[]) => TraceSummary;
}

/**
 * Version 3: titles and runtimes (issue 14); version 2 added link keys with resources and
 * history hashes (issue 10). An index of another version is rebuilt from the trace files.
 */
export const INDEX_VERSION = 4;
const IndexFileSchema = z.object({ version: z.literal(INDEX_VERSION), traces: z.array(TraceSummarySchema) });

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/** What is wrong with one span's ids or times (they decide file names and ordering), or undefined. */
function spanProblem(span: Span): string | undefined {
  return (
    (!TRACE_ID.test(span?.traceId) || /^0+$/.test(span.traceId) ? 'traceId: expected 32 lowercase hex characters, not all zeros' : undefined) ??
    (!SPAN_ID.test(span.spanId) || /^0+$/.test(span.spanId) ? 'spanId: expected 16 lowercase hex characters, not all zeros' : undefined) ??
    (span.parentSpanId !== undefined && !SPAN_ID.test(span.parentSpanId) ? 'parentSpanId: expected 16 lowercase hex characters' : undefined) ??
    (!isUnixNanoText(span.startTimeUnixNano) ? 'startTimeUnixNano: expected a decimal string of nanoseconds, at most 2^64−1' : undefined) ??
    (span.endTimeUnixNano !== undefined && !isUnixNanoText(span.endTimeUnixNano) ? 'endTimeUnixNano: expected a decimal string of nanoseconds, at most 2^64−1' : undefined)
  );
}

/**
 * Checks spans handed to `append` before anything is written: ids and times decide file
 * names and ordering, so a malformed one must never reach the disk.
 */
function assertValidSpans(spans: readonly Span[]): void {
  if (!Array.isArray(spans)) throw new LoopscopeError('INVALID_ARGUMENT', 'Invalid spans: expected an array of spans.');
  spans.forEach((span, index) => {
    const problem = spanProblem(span);
    if (problem) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid span at spans[${index}].${problem}.`);
  });
}

/** A trace id from a caller, lowercased. @throws LoopscopeError INVALID_ARGUMENT when it is not 32 hex characters. */
function checkedTraceId(traceId: string): string {
  const id = typeof traceId === 'string' ? traceId.toLowerCase() : '';
  if (!TRACE_ID.test(id)) throw new LoopscopeError('INVALID_ARGUMENT', `Invalid trace id ${JSON.stringify(traceId)}: expected 32 hex characters.`);
  return id;
}

function encodeTrace(traceId: string, spans: readonly Span[]): string {
  try {
    return JSON.stringify(encodeOtlpJson(spans));
  } catch (error) {
    throw new LoopscopeError('INVALID_ARGUMENT', `Trace ${traceId} has spans that cannot be encoded: ${errorMessage(error)}`, { cause: error });
  }
}

export class TraceStore {
  /** Problems met while rebuilding the index (corrupt trace files are skipped, never deleted). */
  readonly warnings: string[] = [];
  private readonly tracesDir: string;
  private readonly savedDir: string;
  private readonly indexPath: string;
  private readonly saved: SavedTraces;
  // Appends (trace files + index) run one at a time. Saved listing has its own queue in
  // `SavedTraces`; the two never call each other, so neither can wait on itself.
  private appendQueue: Promise<unknown> = Promise.resolve();
  private index?: Promise<Map<string, TraceSummary>>;
  /** Spans waiting for the append queue: appends that arrive meanwhile join them (one write for all). */
  private waitingBatch?: { spans: Span[]; written?: Promise<unknown> };

  private readonly summarize: (traceId: string, spans: Span[]) => TraceSummary;

  constructor(options: TraceStoreOptions) {
    this.tracesDir = path.join(options.dataDir, 'traces');
    this.savedDir = options.savedDir;
    this.indexPath = path.join(options.dataDir, 'index.json');
    this.summarize = options.summarize ?? ((traceId, spans) => summarizeTrace({ traceId, spans }));
    this.saved = new SavedTraces({ savedDir: options.savedDir, savedIndexPath: path.join(options.dataDir, 'saved-index.json'), summarize: this.summarize });
  }

  /**
   * Adds spans, merging each trace with what is stored (`mergeSpans`). Batches are applied
   * one at a time, so concurrent batches of one trace never lose spans; batches that arrive
   * while one is being written are written together, next (one file write per trace, one index
   * write for all of them), so a burst costs one write instead of one per request.
   * @returns the ids of the traces of these spans.
   * @throws LoopscopeError INVALID_ARGUMENT for malformed spans (nothing is written).
   */
  async append(spans: Span[]): Promise<{ traceIds: string[] }> {
    assertValidSpans(spans);
    if (!this.waitingBatch) {
      const batch: { spans: Span[]; written?: Promise<unknown> } = { spans: [] };
      this.waitingBatch = batch;
      batch.written = this.enqueueAppend(() => {
        // From here on, new spans wait for the next batch.
        this.waitingBatch = undefined;
        return this.writeBatch(batch.spans);
      });
    }
    const batch = this.waitingBatch;
    batch.spans.push(...spans);
    await batch.written;
    return { traceIds: [...groupByTrace(spans).keys()] };
  }

  private async writeBatch(spans: Span[]): Promise<void> {
    const index = await this.loadIndex();
    const groups = groupByTrace(spans);
    // Read and encode everything first: a bad stored file or span fails before any write.
    const writes: Array<{ traceId: string; spans: Span[]; text: string }> = [];
    for (const [traceId, incoming] of groups) {
      const merged = mergeSpans((await this.readCaptured(traceId)) ?? [], incoming);
      writes.push({ traceId, spans: merged, text: encodeTrace(traceId, merged) });
    }
    if (writes.length === 0) return;
    await mkdir(this.tracesDir, { recursive: true });
    for (const write of writes) {
      // Captured traces are rewritten per batch: atomic, without fsync (see writeFileAtomic).
      await writeFileAtomic(this.tracePath(write.traceId), write.text, { durable: false });
      index.set(write.traceId, this.summarize(write.traceId, write.spans));
    }
    await this.writeIndex(index);
  }

  /**
   * Deletes captured traces — the given ones, or all — their files and index entries; saved
   * files are never touched. The index is written first, then the files removed: a crash in
   * between leaves stray files the index does not list (harmless, never listed), never an
   * entry pointing at a missing file. Runs in the append queue, so a batch being stored is
   * not half-deleted.
   * @returns the deleted trace ids.
   * @throws LoopscopeError INVALID_ARGUMENT (malformed ids, none given), NOT_FOUND naming the ids that are not captured (nothing deleted).
   */
  async delete(target: { traceIds: readonly string[] } | { all: true }): Promise<{ traceIds: string[] }> {
    const wanted = 'all' in target ? undefined : [...new Set(target.traceIds.map(checkedTraceId))];
    if (wanted && wanted.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'Choose at least one trace to delete.');
    return this.enqueueAppend(async () => {
      const index = await this.loadIndex();
      const traceIds = wanted ?? [...index.keys()];
      const missing = traceIds.filter((traceId) => !index.has(traceId));
      if (missing.length > 0) throw new LoopscopeError('NOT_FOUND', `No captured trace${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: nothing was deleted.`);
      if (traceIds.length === 0) return { traceIds };
      const remaining = new Map(index);
      for (const traceId of traceIds) remaining.delete(traceId);
      await this.writeIndex(remaining);
      for (const traceId of traceIds) index.delete(traceId);
      // Stray files (a crash before this loop, or `all` with files the index never listed) are
      // removed on the next delete of all; a failed unlink is a warning, not a failed delete.
      const files = wanted ? traceIds.map((traceId) => `${traceId}.json`) : await this.capturedFileNames();
      for (const file of files) {
        await unlink(path.join(this.tracesDir, file)).catch((error: unknown) => {
          if (errorCode(error) !== 'ENOENT') this.warnings.push(`Could not remove ${path.join(this.tracesDir, file)}: ${errorMessage(error)}`);
        });
      }
      return { traceIds };
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
    const id = checkedTraceId(traceId);
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
   * The file that holds a trace — its captured copy, else the first saved file holding it —
   * for another process that reads it itself (the runner, for a replay). Reading such a file
   * is safe beside this store: every write replaces it whole (temp file + rename), and the
   * reader never touches the store's index files.
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async traceFile(traceId: string): Promise<{ path: string; captured: boolean } | undefined> {
    const id = checkedTraceId(traceId);
    if (await this.hasCaptured(id)) return { path: this.tracePath(id), captured: true };
    const saved = (await this.listSaved()).find((file) => !file.error && file.traceIds.includes(id));
    return saved ? { path: this.savedFilePath(saved.file), captured: false } : undefined;
  }

  /**
   * The absolute path of a saved file, its name checked as `loadSaved` checks it.
   * @throws LoopscopeError INVALID_ARGUMENT (bad name), NOT_FOUND (no such file).
   */
  async savedFile(file: string): Promise<string> {
    const target = this.savedFilePath(savedTraceFileName(file, { allowJsonl: true }));
    const stats = await stat(target).catch(() => undefined);
    if (!stats?.isFile()) throw new LoopscopeError('NOT_FOUND', `No saved trace file named ${path.basename(target)}.`);
    return target;
  }

  /**
   * The spans of one captured trace only (never a saved copy), undefined when it is not
   * captured: for readers that must not list the saved folder (a live graph, rebuilt often).
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async getCaptured(traceId: string): Promise<Span[] | undefined> {
    const id = checkedTraceId(traceId);
    return this.readCaptured(id);
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
    await this.saved.write({ file, spans, overwrite: options.overwrite ?? false });
    return { file };
  }

  /**
   * Every `*.json` / `*.jsonl` file of the saved folder, newest first. Parsed results are
   * cached in `dataDir/saved-index.json` by name + size + mtime: only new or changed files
   * are read. Unreadable files are listed with `error`.
   */
  listSaved(): Promise<SavedTraceFile[]> {
    return this.saved.list();
  }

  /**
   * The spans of one saved file (any supported format).
   * @throws LoopscopeError INVALID_ARGUMENT (bad name or content), NOT_FOUND.
   */
  loadSaved(file: string): Promise<Span[]> {
    return this.saved.load(file);
  }

  private enqueueAppend<T>(task: () => Promise<T>): Promise<T> {
    const result = this.appendQueue.then(task);
    // A failed task must not block the ones queued after it.
    this.appendQueue = result.catch(() => undefined);
    return result;
  }

  private tracePath(traceId: string): string {
    return path.join(this.tracesDir, `${traceId}.json`);
  }

  private savedFilePath(file: string): string {
    return path.join(this.savedDir, file);
  }

  private async hasCaptured(traceId: string): Promise<boolean> {
    return (await stat(this.tracePath(traceId)).catch(() => undefined))?.isFile() ?? false;
  }

  /** The stored spans of a captured trace, undefined when there is none. */
  private async readCaptured(traceId: string): Promise<Span[] | undefined> {
    let text: string;
    try {
      text = await readTextFile(this.tracePath(traceId));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw new LoopscopeError('INTERNAL', `Could not read captured trace ${traceId}: ${errorMessage(error)}`, { cause: error });
    }
    try {
      return decodeOtlpJson(parseJsonLimited(text, { what: 'the text' }));
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
      text = await readTextFile(this.indexPath);
      const parsed = IndexFileSchema.parse(parseJsonLimited(text, { what: 'The index' }));
      return new Map(parsed.traces.map((summary) => [summary.traceId, summary]));
    } catch (error) {
      if (text !== undefined) this.warnings.push(`${this.indexPath} was unreadable (${errorMessage(error)}); rebuilt it from the trace files.`);
    }
    const index = new Map<string, TraceSummary>();
    const files = await this.capturedFileNames();
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

  /** The `<traceId>.json` files of the captured folder, sorted; none when it does not exist. */
  private async capturedFileNames(): Promise<string[]> {
    try {
      return (await readdir(this.tracesDir)).filter((file) => /^[0-9a-f]{32}\.json$/.test(file)).sort();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new LoopscopeError('INTERNAL', `Could not list ${this.tracesDir}: ${errorMessage(error)}`, { cause: error });
      return [];
    }
  }

  private async writeIndex(index: Map<string, TraceSummary>): Promise<void> {
    const traces = [...index.values()].sort(newestFirst((summary) => summary.traceId));
    await mkdir(path.dirname(this.indexPath), { recursive: true });
    await writeFileAtomic(this.indexPath, JSON.stringify({ version: INDEX_VERSION, traces }), { durable: false });
  }
}
