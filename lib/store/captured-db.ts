/**
 * The captured traces' database: one SQLite file (`dataDir/loopscope.db`, through
 * better-sqlite3) holding each trace's spans (OTLP JSON, as a trace file would) and its index
 * row in the same table pair, written in one transaction per batch.
 *
 * Why SQLite and not files plus an index file: an ingest is one durable transaction (a crash
 * leaves the batch whole or absent, never a trace its index does not list or lists wrongly),
 * its cost does not grow with the store (B-tree updates, no index file rewritten), and listing,
 * filtering and searching 10,000+ traces are indexed queries (`start_time`, `status`,
 * `runtime`, `service`, and an FTS5 trigram index for substring search). WAL journaling lets
 * other processes (the CLI) read and write beside the server. `synchronous = NORMAL` keeps every
 * committed transaction through a process crash (kill -9); only a power cut can lose the last
 * ones, as with the unsynced files before.
 *
 * This module knows SQL, not spans: rows come in and out as text and summaries.
 */
import Database from 'better-sqlite3';
import type { TraceSummary } from '../spans/summarize-trace';
import { traceSearchText } from '../spans/trace-index-rows';
import { WalCheckpointer } from './wal-checkpointer';

/** One trace as written: its summary and its spans as OTLP JSON text. */
export interface CapturedRow {
  summary: TraceSummary;
  spansText: string;
}

/** An indexed page query (every field optional). */
export interface CapturedQuery {
  /** Words that must all occur in the search text (case-insensitive substrings). */
  words?: readonly string[];
  /**
   * A status filter: traces that take no part in linking keep their stored status, so they are
   * kept by `stored`; linked traces' statuses are decided by their links, so the caller names
   * the linked ones to keep.
   */
  status?: { stored: string; linkedTraceIds: readonly string[] };
  service?: string;
  runtime?: string;
  /** Only traces started at or after this time (ms). */
  since?: number;
  /** Keyset paging: only traces listed after this one (newest first). */
  after?: { startTime: number; traceId: string };
  limit: number;
}

export interface CapturedDbOptions {
  /**
   * Checkpoint the write-ahead log in a worker thread (wal-checkpointer.ts), loading
   * better-sqlite3 from this project's node_modules, instead of in the thread that commits
   * (the server: its event loop stood still 30–60 ms every ~14 runs). Without it SQLite
   * checkpoints on commit, as for the CLI's short writes.
   */
  backgroundCheckpoints?: { projectDir: string };
  /** Told when checkpointing fell back to SQLite's own on commit (the worker failed). */
  onWarning?: (message: string) => void;
}

/** The log's bound while checkpoints run in the background (pages): SQLite checkpoints on commit past it, should the worker fall behind. */
const SAFETY_CHECKPOINT_PAGES = 16_000;
/** SQLite's default `wal_autocheckpoint`, restored when the worker fails. */
const DEFAULT_CHECKPOINT_PAGES = 1_000;

/** Bump when the tables change; an older file is migrated in `open`. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS traces (
  id INTEGER PRIMARY KEY,
  trace_id TEXT NOT NULL UNIQUE,
  start_time REAL NOT NULL,
  status TEXT NOT NULL,
  service TEXT,
  runtime TEXT,
  linked INTEGER NOT NULL,
  summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS traces_newest ON traces (start_time DESC, trace_id);
CREATE INDEX IF NOT EXISTS traces_status ON traces (linked, status, start_time DESC, trace_id);
CREATE INDEX IF NOT EXISTS traces_linked ON traces (linked) WHERE linked = 1;
CREATE TABLE IF NOT EXISTS trace_spans (id INTEGER PRIMARY KEY, spans TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS trace_search USING fts5 (text, tokenize = 'trigram');
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Does this summary take part in linking (interrupts, resumes, replays)? Only those are re-read to link. */
function isLinked(summary: TraceSummary): boolean {
  return (summary.linkKeys?.interrupted.length ?? 0) + (summary.linkKeys?.resumes.length ?? 0) + (summary.replays?.length ?? 0) > 0;
}

/** A word as an FTS5 string (quotes doubled): matched as a substring by the trigram tokenizer. */
const ftsString = (word: string) => `"${word.replaceAll('"', '""')}"`;

export class CapturedDb {
  private readonly db: Database.Database;
  private readonly statements: ReturnType<CapturedDb['prepare']>;
  private ownWrites = 0;
  /**
   * Every summary in memory, for the whole list (the home page reads it after every change):
   * patched by this connection's own writes, read again when another process wrote.
   */
  private summaries?: { dataVersion: number; byId: Map<string, TraceSummary>; sorted?: TraceSummary[] };
  private checkpointer?: WalCheckpointer;

  private constructor(file: string, options: CapturedDbOptions) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Another process (the CLI) may hold the write lock for a moment.
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    this.statements = this.prepare();
    if (options.backgroundCheckpoints) this.startCheckpointer({ file, projectDir: options.backgroundCheckpoints.projectDir, onWarning: options.onWarning });
  }

  /** Opens (creating) the database file. @throws when the file is not a database or cannot be opened. */
  static open(file: string, options: CapturedDbOptions = {}): CapturedDb {
    return new CapturedDb(file, options);
  }

  /** Checkpoints done by the worker thread so far (0 without one). */
  get backgroundCheckpoints(): number {
    return this.checkpointer?.passes ?? 0;
  }

  private startCheckpointer(options: { file: string; projectDir: string; onWarning?: (message: string) => void }): void {
    const fallBack = (message: string) => {
      this.checkpointer = undefined;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`);
      options.onWarning?.(`The trace database is checkpointed on commit again (${message}).`);
    };
    this.checkpointer = WalCheckpointer.start({
      file: options.file,
      projectDir: options.projectDir,
      finish: () => {
        if (this.db.open) this.db.pragma('wal_checkpoint(PASSIVE)');
      },
      onFailed: fallBack,
    });
    if (this.checkpointer) this.db.pragma(`wal_autocheckpoint = ${SAFETY_CHECKPOINT_PAGES}`);
  }

  private prepare() {
    const db = this.db;
    return {
      idOf: db.prepare<[string], { id: number }>('SELECT id FROM traces WHERE trace_id = ?'),
      spansOf: db.prepare<[string], { spans: string }>('SELECT s.spans FROM traces t JOIN trace_spans s ON s.id = t.id WHERE t.trace_id = ?'),
      insert: db.prepare<[string, number, string, string | null, string | null, number, string]>(
        'INSERT INTO traces (trace_id, start_time, status, service, runtime, linked, summary) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      update: db.prepare<[number, string, string | null, string | null, number, string, number]>(
        'UPDATE traces SET start_time = ?, status = ?, service = ?, runtime = ?, linked = ?, summary = ? WHERE id = ?',
      ),
      putSpans: db.prepare<[number, string]>('INSERT OR REPLACE INTO trace_spans (id, spans) VALUES (?, ?)'),
      putSearch: db.prepare<[number, string]>('INSERT OR REPLACE INTO trace_search (rowid, text) VALUES (?, ?)'),
      deleteTrace: db.prepare<[number]>('DELETE FROM traces WHERE id = ?'),
      deleteSpans: db.prepare<[number]>('DELETE FROM trace_spans WHERE id = ?'),
      deleteSearch: db.prepare<[number]>('DELETE FROM trace_search WHERE rowid = ?'),
      all: db.prepare<[], { summary: string }>('SELECT summary FROM traces ORDER BY start_time DESC, trace_id'),
      linked: db.prepare<[], { summary: string }>('SELECT summary FROM traces WHERE linked = 1 ORDER BY start_time DESC, trace_id'),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM traces'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    };
  }

  /** The spans text of a trace, undefined when it is not stored. */
  spansText(traceId: string): string | undefined {
    return this.statements.spansOf.get(traceId)?.spans;
  }

  has(traceId: string): boolean {
    return this.statements.idOf.get(traceId) !== undefined;
  }

  count(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  /** Writes the rows (insert or replace, by trace id) in one transaction: all or none. */
  write(rows: readonly CapturedRow[]): void {
    const { idOf, insert, update, putSpans, putSearch } = this.statements;
    let bytes = 0;
    this.db.transaction(() => {
      for (const { summary, spansText } of rows) {
        bytes += spansText.length;
        const columns = [summary.startTime, summary.status, summary.serviceName ?? null, summary.runtime ?? null, isLinked(summary) ? 1 : 0, JSON.stringify(summary)] as const;
        const existing = idOf.get(summary.traceId)?.id;
        const id = existing ?? Number(insert.run(summary.traceId, ...columns).lastInsertRowid);
        if (existing !== undefined) update.run(...columns, existing);
        putSpans.run(id, spansText);
        putSearch.run(id, traceSearchText(summary));
      }
    })();
    this.checkpointer?.committed(bytes);
    this.ownWrites++;
    this.patchSummaries((byId) => {
      for (const { summary } of rows) byId.set(summary.traceId, summary);
    });
  }

  /** Applies this connection's change to the summaries in memory, or drops them when another process wrote too. */
  private patchSummaries(change: (byId: Map<string, TraceSummary>) => void): void {
    if (!this.summaries) return;
    if (this.summaries.dataVersion !== this.dataVersion()) {
      this.summaries = undefined;
      return;
    }
    change(this.summaries.byId);
    this.summaries.sorted = undefined;
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Deletes the given traces (unknown ids are skipped) in one transaction; returns the ids deleted. */
  delete(traceIds: readonly string[]): string[] {
    const { idOf, deleteTrace, deleteSpans, deleteSearch } = this.statements;
    const deleted: string[] = [];
    this.db.transaction(() => {
      for (const traceId of traceIds) {
        const id = idOf.get(traceId)?.id;
        if (id === undefined) continue;
        deleteTrace.run(id);
        deleteSpans.run(id);
        deleteSearch.run(id);
        deleted.push(traceId);
      }
    })();
    this.ownWrites++;
    this.patchSummaries((byId) => {
      for (const traceId of deleted) byId.delete(traceId);
    });
    return deleted;
  }

  /** Every summary, newest first (a new array; the summaries are shared, do not change them). */
  all(): TraceSummary[] {
    const dataVersion = this.dataVersion();
    if (this.summaries?.dataVersion !== dataVersion) {
      const sorted = this.statements.all.all().map((row) => JSON.parse(row.summary) as TraceSummary);
      this.summaries = { dataVersion, byId: new Map(sorted.map((summary) => [summary.traceId, summary])), sorted };
    }
    this.summaries.sorted ??= [...this.summaries.byId.values()].sort((a, b) => b.startTime - a.startTime || (a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : 0));
    return [...this.summaries.sorted];
  }

  /** The summaries that take part in linking (interrupts, resumes, replays), newest first. */
  linked(): TraceSummary[] {
    return this.statements.linked.all().map((row) => JSON.parse(row.summary) as TraceSummary);
  }

  /** A page of summaries, newest first, that pass every condition of the query (exactly: no caller filter needed). */
  query(query: CapturedQuery): TraceSummary[] {
    const where: string[] = [];
    const params: Array<string | number> = [];
    const words = (query.words ?? []).filter((word) => [...word].length >= 3);
    if (words.length > 0) {
      where.push('t.id IN (SELECT rowid FROM trace_search WHERE trace_search MATCH ?)');
      params.push(words.map(ftsString).join(' AND '));
    }
    for (const word of (query.words ?? []).filter((candidate) => [...candidate].length < 3)) {
      // Too short for the trigram index: checked row by row, stopping once the page is full.
      where.push('instr((SELECT text FROM trace_search WHERE rowid = t.id), ?) > 0');
      params.push(word);
    }
    if (query.service !== undefined) {
      where.push('t.service = ?');
      params.push(query.service);
    }
    if (query.runtime !== undefined) {
      where.push('t.runtime = ?');
      params.push(query.runtime);
    }
    if (query.since !== undefined) {
      where.push('t.start_time >= ?');
      params.push(query.since);
    }
    if (query.after) {
      where.push('(t.start_time < ? OR (t.start_time = ? AND t.trace_id > ?))');
      params.push(query.after.startTime, query.after.startTime, query.after.traceId);
    }
    const select = (extra: string) => `SELECT t.summary, t.start_time, t.trace_id FROM traces t WHERE ${[...where, extra].join(' AND ')} ORDER BY t.start_time DESC, t.trace_id LIMIT ?`;
    let sql = select('1');
    let values: Array<string | number> = [...params, query.limit];
    if (query.status) {
      // Two branches, each on its own index (an OR would scan): unlinked traces by their stored
      // status (traces_status), and the linked traces the caller named.
      sql = `SELECT * FROM (${select('t.linked = 0 AND t.status = ?')}) UNION ALL SELECT * FROM (${select('t.trace_id IN (SELECT value FROM json_each(?))')}) ORDER BY start_time DESC, trace_id LIMIT ?`;
      values = [...params, query.status.stored, query.limit, ...params, JSON.stringify(query.status.linkedTraceIds), query.limit, query.limit];
    }
    return this.db
      .prepare<Array<string | number>, { summary: string }>(sql)
      .all(...values)
      .map((row) => JSON.parse(row.summary) as TraceSummary);
  }

  /**
   * Changes whenever the data changes, by this connection or another process: caches of
   * derived views (links) compare it.
   */
  generation(): string {
    return `${this.ownWrites}:${this.dataVersion()}`;
  }

  meta(key: string): string | undefined {
    return this.statements.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  /** Every stored trace id with its summary and spans text, one at a time (for re-summarizing after a summarizer change). */
  *eachTrace(): Generator<{ traceId: string; summaryText: string; spansText: string }> {
    const rows = this.db.prepare<[], { trace_id: string; summary: string; spans: string }>('SELECT t.trace_id, t.summary, s.spans FROM traces t JOIN trace_spans s ON s.id = t.id ORDER BY t.id');
    // Collected first: writing while iterating a statement is not allowed.
    for (const row of rows.all()) yield { traceId: row.trace_id, summaryText: row.summary, spansText: row.spans };
  }

  /** Closes the worker's connection first, so this one is the last: SQLite checkpoints the rest and removes the log. */
  async close(): Promise<void> {
    const checkpointer = this.checkpointer;
    this.checkpointer = undefined;
    await checkpointer?.close();
    if (this.db.open) this.db.close();
  }
}
