/**
 * The trace store: captured traces in one SQLite database, `dataDir/loopscope.db`
 * (captured-db.ts: each trace's spans and its index row, written in one transaction per
 * batch), and named saved files in `savedDir` (the repo's `traces/`, handled by
 * `SavedTraces` in saved-traces.ts, which this store delegates to).
 *
 * A data folder of the earlier layout (`traces/<traceId>.json` plus `index.json`) is migrated
 * on first open: every readable trace file is imported, then removed; corrupt ones are left in
 * place with a warning.
 */
import { mkdir, readdir, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, LoopscopeError } from '../errors';
import { writeFileAtomic } from './atomic-write';
import { CapturedDb, type CapturedQuery, type CapturedRow } from './captured-db';
import { mergeSpans } from '../spans/merge-spans';
import { decodeOtlpJson, encodeOtlpJson } from '../spans/otlp-json';
import { boundedSummary } from '../spans/bounded-summary';
import { parseJsonLimited, tryParseJsonLimited } from '../spans/parse-json-limited';
import { readTextFile } from './read-text-file';
import { errorCode, groupByTrace, SavedTraces, savedTraceFileName, type SavedTraceFile } from './saved-traces';
import { isUnixNanoText, type Span } from '../spans/span';
import { summarizeTrace, type TraceSummary } from '../spans/summarize-trace';

// Importers of the store keep getting the saved-folder names from here.
export { savedTraceFileName, type SavedTraceFile };
export type { CapturedQuery } from './captured-db';

export interface TraceStoreOptions {
  /** Captured traces and indexes (`.loopscope/` by default). */
  dataDir: string;
  /** Named saved trace files (`traces/`). */
  savedDir: string;
  /** How a trace is summarized for the indexes (default `summarizeTrace`, OpenTelemetry fields only; the server passes the dialects'). */
  summarize?: (traceId: string, spans: Span[]) => TraceSummary;
  /** Checkpoint the database in a worker thread (captured-db.ts; the server's store, which commits all the time). */
  backgroundCheckpoints?: { projectDir: string };
}

/** Spans waiting for the append queue, written together in one transaction. */
interface WaitingBatch {
  spans: Span[];
  written: Promise<void>;
  /** The batch is written on the next turn of the event loop (once it is first in the queue). */
  commitSoon: () => void;
}

/** How an append's commit is scheduled (see `TraceStore.queueAppend`). */
export interface AppendOptions {
  /**
   * `soon` (the default): on the next turn of the event loop. `behind`: nobody waits for this
   * commit to answer a request, so it waits until a read, a delete, an append of `soon` or
   * this long (`BEHIND_COMMIT_MS`) after its batch began.
   */
  commit?: 'soon' | 'behind';
}

/**
 * How long a batch of `behind` appends waits for its commit at most. A run's commit (2–6 ms
 * here for a 62-span trace) that ran as soon as its run was reported done delayed the next
 * request the page (or a tight loop of runs) sent right after: waiting lets that request go
 * first and the commit run while the runner works (bench/capture-overhead.bench.ts). Reads never
 * wait for it: a read starts the commit at once (read-your-writes).
 */
export const BEHIND_COMMIT_MS = 20;

/**
 * The version of the summaries kept in the index rows. Version 5: names, titles, service names,
 * models and error messages bounded (issue 36); 4: replays (issue 13); 3: titles and runtimes
 * (issue 14); 2: link keys with resources and history hashes (issue 10). Rows of another version
 * are re-summarized from their spans when the store opens.
 */
export const INDEX_VERSION = 5;
const SUMMARY_VERSION_KEY = 'summaryVersion';
/** Legacy trace files imported per transaction while migrating. */
const MIGRATION_BATCH = 200;

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
  /** Problems met while opening or migrating (corrupt legacy trace files are skipped, never deleted). */
  readonly warnings: string[] = [];
  private readonly dataDir: string;
  private readonly savedDir: string;
  private readonly dbPath: string;
  /** The earlier layout's folder and index, read once to migrate them. */
  private readonly legacyTracesDir: string;
  private readonly legacyIndexPath: string;
  private readonly saved: SavedTraces;
  // Appends and deletes run one at a time. Saved listing has its own queue in `SavedTraces`;
  // the two never call each other, so neither can wait on itself.
  private appendQueue: Promise<unknown> = Promise.resolve();
  private db?: Promise<CapturedDb>;
  /** Spans waiting for the append queue: appends that arrive meanwhile join them (one transaction for all). */
  private waitingBatch?: WaitingBatch;

  private readonly summarize: (traceId: string, spans: Span[]) => TraceSummary;
  private readonly backgroundCheckpoints?: { projectDir: string };

  constructor(options: TraceStoreOptions) {
    this.dataDir = options.dataDir;
    this.dbPath = path.join(options.dataDir, 'loopscope.db');
    this.legacyTracesDir = path.join(options.dataDir, 'traces');
    this.legacyIndexPath = path.join(options.dataDir, 'index.json');
    this.savedDir = options.savedDir;
    const summarize = options.summarize ?? ((traceId, spans) => summarizeTrace({ traceId, spans }));
    // Every summary the indexes keep has its span-derived strings bounded (bounded-summary.ts).
    this.summarize = (traceId, spans) => boundedSummary(summarize(traceId, spans));
    this.backgroundCheckpoints = options.backgroundCheckpoints;
    this.saved = new SavedTraces({ savedDir: options.savedDir, savedIndexPath: path.join(options.dataDir, 'saved-index.json'), summarize: this.summarize });
  }

  /**
   * Adds spans, merging each trace with what is stored (`mergeSpans`). Batches are applied
   * one at a time, so concurrent batches of one trace never lose spans; batches that arrive
   * while one is being written are written together, next, in one transaction: a burst costs
   * one commit instead of one per request. Resolves once the transaction committed.
   * @returns the ids of the traces of these spans.
   * @throws LoopscopeError INVALID_ARGUMENT for malformed spans (nothing is written).
   */
  async append(spans: Span[]): Promise<{ traceIds: string[] }> {
    const { traceIds, committed } = this.queueAppend(spans);
    await committed;
    return { traceIds };
  }

  /**
   * Queues spans for `append`'s transaction and returns at once: every read from here on
   * answers after their commit (read-your-writes), so a caller may tell others about them
   * before `committed` settles. The commit is synchronous (SQLite) and takes milliseconds for
   * a run's trace: it waits at least for the next turn of the event loop, so that what the
   * caller's tick produced leaves first — the event saying a run is done, which the supervisor
   * publishes right after it handed the run's spans here, reached the page 5 ms later before
   * (bench/capture-overhead.bench.ts) — and with `commit: 'behind'` up to `BEHIND_COMMIT_MS`, unless
   * something reads first. Appends made meanwhile join the batch.
   * @throws LoopscopeError INVALID_ARGUMENT for malformed spans (nothing is queued).
   */
  queueAppend(spans: Span[], options: AppendOptions = {}): { traceIds: string[]; committed: Promise<void> } {
    assertValidSpans(spans);
    const batch = this.waitingBatch ?? this.startBatch();
    batch.spans.push(...spans);
    if (options.commit !== 'behind') batch.commitSoon();
    return { traceIds: [...groupByTrace(spans).keys()], committed: batch.written };
  }

  private startBatch(): WaitingBatch {
    const spans: Span[] = [];
    let release!: () => void;
    const due = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => release(), BEHIND_COMMIT_MS);
    let soon = false;
    const commitSoon = () => {
      if (soon) return;
      soon = true;
      clearTimeout(timer);
      setImmediate(release);
    };
    const written = this.enqueue(async () => {
      await due;
      // From here on, new spans wait for the next batch.
      this.waitingBatch = undefined;
      return this.writeBatch(spans);
    });
    return (this.waitingBatch = { spans, written, commitSoon });
  }

  private async writeBatch(spans: Span[]): Promise<void> {
    const groups = groupByTrace(spans);
    if (groups.size === 0) return;
    const db = await this.openedDatabase();
    // Read and encode everything first: a bad stored trace or span fails before any write.
    const rows: CapturedRow[] = [];
    for (const [traceId, incoming] of groups) {
      const merged = mergeSpans(this.readCaptured(db, traceId) ?? [], incoming);
      rows.push({ summary: this.summarize(traceId, merged), spansText: encodeTrace(traceId, merged) });
    }
    db.write(rows);
  }

  /**
   * Deletes captured traces — the given ones, or all — in one transaction; saved files are
   * never touched. Runs in the append queue, so a batch being stored is not half-deleted.
   * @returns the deleted trace ids.
   * @throws LoopscopeError INVALID_ARGUMENT (malformed ids, none given), NOT_FOUND naming the ids that are not captured (nothing deleted).
   */
  async delete(target: { traceIds: readonly string[] } | { all: true }): Promise<{ traceIds: string[] }> {
    const wanted = 'all' in target ? undefined : [...new Set(target.traceIds.map(checkedTraceId))];
    if (wanted && wanted.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'Choose at least one trace to delete.');
    this.waitingBatch?.commitSoon();
    return this.enqueue(async () => {
      const db = await this.existingDatabase();
      const traceIds = wanted ?? db?.all().map((summary) => summary.traceId) ?? [];
      const missing = traceIds.filter((traceId) => !db?.has(traceId));
      if (missing.length > 0) throw new LoopscopeError('NOT_FOUND', `No captured trace${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: nothing was deleted.`);
      if (!db || traceIds.length === 0) return { traceIds };
      db.delete(traceIds);
      // Copies handed to other processes (`traceFile`) go with the trace.
      for (const traceId of traceIds) await rm(this.recordingCopyPath(traceId), { force: true });
      return { traceIds };
    });
  }

  /** Summaries of every captured trace, newest first. */
  async list(): Promise<TraceSummary[]> {
    return (await this.readableDatabase())?.all() ?? [];
  }

  /** A page of captured traces that pass the query, newest first, from the indexes (see `CapturedDb.query`). */
  async query(query: CapturedQuery): Promise<TraceSummary[]> {
    return (await this.readableDatabase())?.query(query) ?? [];
  }

  /** The summaries that take part in linking (interrupts, resumes, replays): what sessions and statuses are decided from. */
  async linkedSummaries(): Promise<TraceSummary[]> {
    return (await this.readableDatabase())?.linked() ?? [];
  }

  /** Changes whenever captured traces change (in this process or another): for caches of views derived from them. */
  async generation(): Promise<string> {
    return (await this.readableDatabase())?.generation() ?? 'empty';
  }

  /** Checkpoints the database's worker thread has done (0 without `backgroundCheckpoints`, or before the database opened). */
  async backgroundCheckpointCount(): Promise<number> {
    return (await this.db?.catch(() => undefined))?.backgroundCheckpoints ?? 0;
  }

  /** How many traces are captured. */
  async count(): Promise<number> {
    return (await this.readableDatabase())?.count() ?? 0;
  }

  /**
   * Is this trace captured here (not a saved copy)?
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async hasCaptured(traceId: string): Promise<boolean> {
    const id = checkedTraceId(traceId);
    return (await this.readableDatabase())?.has(id) ?? false;
  }

  /**
   * The spans of a trace: the captured copy first, else the first saved file holding it.
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async get(traceId: string): Promise<Span[] | undefined> {
    const id = checkedTraceId(traceId);
    const captured = await this.getCaptured(id);
    if (captured) return captured;
    for (const saved of await this.listSaved()) {
      if (!saved.traceIds.includes(id)) continue;
      const spans = (await this.loadSaved(saved.file)).filter((span) => span.traceId === id);
      if (spans.length > 0) return spans;
    }
    return undefined;
  }

  /**
   * A file that holds a trace, for another process that reads it itself (the runner, for a
   * replay): for a captured trace a copy written now (OTLP JSON, `dataDir/recordings/`,
   * atomically, removed with the trace), else the first saved file holding it.
   * @throws LoopscopeError INVALID_ARGUMENT for a malformed id.
   */
  async traceFile(traceId: string): Promise<{ path: string; captured: boolean } | undefined> {
    const id = checkedTraceId(traceId);
    const text = (await this.readableDatabase())?.spansText(id);
    if (text !== undefined) {
      const copy = this.recordingCopyPath(id);
      await mkdir(path.dirname(copy), { recursive: true });
      await writeFileAtomic(copy, text, { durable: false });
      return { path: copy, captured: true };
    }
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
    const db = await this.readableDatabase();
    return db ? this.readCaptured(db, id) : undefined;
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

  /** Closes the database (a later call opens it again). */
  async close(): Promise<void> {
    // What is queued is written first.
    this.waitingBatch?.commitSoon();
    await this.appendQueue;
    const db = this.db;
    this.db = undefined;
    await (await db?.catch(() => undefined))?.close();
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.appendQueue.then(task);
    // A failed task must not block the ones queued after it.
    this.appendQueue = result.catch(() => undefined);
    return result;
  }

  private recordingCopyPath(traceId: string): string {
    return path.join(this.dataDir, 'recordings', `${traceId}.json`);
  }

  private savedFilePath(file: string): string {
    return path.join(this.savedDir, file);
  }

  /** The stored spans of a captured trace, undefined when there is none. */
  private readCaptured(db: CapturedDb, traceId: string): Span[] | undefined {
    const text = db.spansText(traceId);
    if (text === undefined) return undefined;
    try {
      return decodeOtlpJson(parseJsonLimited(text, { what: 'the text' }));
    } catch (error) {
      throw new LoopscopeError('FAILED_PRECONDITION', `The captured trace ${traceId} in ${this.dbPath} is corrupt (${errorMessage(error)}); it was left in place.`, {
        cause: error,
      });
    }
  }

  /**
   * The database for a read, once every append and delete queued before the read has ended
   * (read-your-writes): a run is reported done as soon as its spans are handed to `append`
   * (lib/server/ingest/span-write-behind.ts), not after their commit, so a read that follows must
   * wait for it. Only what was queued before the read is waited for, so reads go on under a
   * steady stream of appends. Never called from a queued task (it would wait for itself).
   */
  private async readableDatabase(): Promise<CapturedDb | undefined> {
    this.waitingBatch?.commitSoon();
    await this.appendQueue;
    return this.existingDatabase();
  }

  /**
   * The database when there is one (or legacy files to migrate into it), else undefined: an
   * empty data folder stays untouched until something is stored.
   */
  private async existingDatabase(): Promise<CapturedDb | undefined> {
    if (!this.db && !existsSync(this.dbPath) && (await this.legacyTraceFiles()).length === 0) return undefined;
    return this.openedDatabase();
  }

  /** The database, opened (and created) once. */
  private openedDatabase(): Promise<CapturedDb> {
    this.db ??= this.openDatabase().catch((error: unknown) => {
      this.db = undefined; // let the next call retry instead of caching the failure
      throw error;
    });
    return this.db;
  }

  private async openDatabase(): Promise<CapturedDb> {
    await mkdir(this.dataDir, { recursive: true });
    let db: CapturedDb;
    try {
      db = CapturedDb.open(this.dbPath, {
        backgroundCheckpoints: this.backgroundCheckpoints,
        onWarning: (message) => {
          this.warnings.push(message);
          console.warn(`loopscope: ${message}`);
        },
      });
    } catch (error) {
      throw new LoopscopeError('FAILED_PRECONDITION', `Could not open the trace database ${this.dbPath}: ${errorMessage(error)}. It was left in place; move it aside to start with an empty store.`, {
        cause: error,
      });
    }
    this.resummarize(db);
    await this.migrateLegacyFiles(db);
    return db;
  }

  /** Rows summarized by another summary version are summarized again from their spans. */
  private resummarize(db: CapturedDb): void {
    if (db.meta(SUMMARY_VERSION_KEY) === String(INDEX_VERSION)) return;
    const rows: CapturedRow[] = [];
    for (const { traceId, summaryText, spansText } of db.eachTrace()) {
      try {
        rows.push({ summary: this.summarize(traceId, decodeOtlpJson(parseJsonLimited(spansText, { what: 'the text' }))), spansText });
      } catch (error) {
        this.warnings.push(`Could not summarize captured trace ${traceId} again: ${errorMessage(error)}; its old summary is kept.`);
        // Kept bounded all the same: the lists read the row as it is.
        const old = tryParseJsonLimited(summaryText);
        if (old.ok && typeof old.value === 'object' && old.value !== null) rows.push({ summary: boundedSummary(old.value as TraceSummary), spansText });
      }
    }
    db.write(rows);
    db.setMeta(SUMMARY_VERSION_KEY, String(INDEX_VERSION));
  }

  /**
   * Imports the earlier layout's trace files (merged with what the database holds, so an
   * import cut short by a crash is simply done again), then removes them and the old index.
   */
  private async migrateLegacyFiles(db: CapturedDb): Promise<void> {
    const files = await this.legacyTraceFiles();
    for (let start = 0; start < files.length; start += MIGRATION_BATCH) {
      const rows: CapturedRow[] = [];
      const imported: string[] = [];
      for (const file of files.slice(start, start + MIGRATION_BATCH)) {
        const traceId = file.slice(0, 32);
        const filePath = path.join(this.legacyTracesDir, file);
        try {
          const spans = mergeSpans(this.readCaptured(db, traceId) ?? [], decodeOtlpJson(parseJsonLimited(await readTextFile(filePath), { what: 'the text' })));
          rows.push({ summary: this.summarize(traceId, spans), spansText: encodeTrace(traceId, spans) });
          imported.push(filePath);
        } catch (error) {
          this.warnings.push(`Skipped ${filePath} while moving captured traces into ${this.dbPath}: ${errorMessage(error)}; it was left in place.`);
        }
      }
      db.write(rows);
      for (const file of imported) await unlink(file).catch(() => undefined);
    }
    await rm(this.legacyIndexPath, { force: true });
    // Temp files of the old atomic writes are never a trace of their own.
    const leftovers = (await readdir(this.legacyTracesDir).catch(() => [] as string[])).filter((file) => file.endsWith('.tmp'));
    for (const file of leftovers) await unlink(path.join(this.legacyTracesDir, file)).catch(() => undefined);
    if (files.length > 0 || leftovers.length > 0) await rmdir(this.legacyTracesDir).catch(() => undefined); // stays when corrupt files are left in it
  }

  /** The `<traceId>.json` files of the earlier layout's folder, sorted; none when it does not exist. */
  private async legacyTraceFiles(): Promise<string[]> {
    try {
      return (await readdir(this.legacyTracesDir)).filter((file) => /^[0-9a-f]{32}\.json$/.test(file)).sort();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new LoopscopeError('INTERNAL', `Could not list ${this.legacyTracesDir}: ${errorMessage(error)}`, { cause: error });
      return [];
    }
  }
}
