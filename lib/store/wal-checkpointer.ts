/**
 * Checkpoints the captured traces' database (captured-db.ts) from a worker thread, so that the
 * server's event loop does not stop while SQLite copies the write-ahead log into the database
 * and syncs it.
 *
 * SQLite checkpoints by itself on the commit that takes the log past 1,000 pages (4 MiB), in
 * the committing thread: with a 62-span run's ~290 KB of spans that is every ~14 runs, and each
 * took 30–60 ms here, during which no request, span or event was handled (bench/store-checkpoint.bench.ts).
 * Here the committing connection stops checkpointing (past a far larger safety bound), and
 * after each ~4 MiB committed asks a worker thread with its own connection for a passive
 * checkpoint (it never blocks a writer). SQLite starts the log from its beginning again only
 * when a commit begins with the whole log copied; a commit during the worker's pass leaves its
 * frames uncopied, and under a steady stream of commits (one every 30 ms, passes of 40 ms) the
 * log file grew by every byte written (measured). So the worker passes again while commits came
 * in during its pass, each pass copying only what came since; after a pass with none, the
 * committing connection checkpoints itself, which copies nothing (0.1 ms) and lets the log start
 * over. A checkpoint that copies anything syncs the database file (20–40 ms here), so the
 * committing connection does that only when the log passed `FORCE_FINISH_BYTES` under commits
 * that never paused.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../errors';

/** The worker: opens the database once, answers each request with one passive checkpoint, and on `close` closes it and ends. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (request) => {
  if (request === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message || error) });
  }
});
`;

export interface WalCheckpointerOptions {
  /** The database file. */
  file: string;
  /** A folder whose node_modules hold better-sqlite3 (the project's): the worker loads it from there. */
  projectDir: string;
  /**
   * The worker copied the whole log and nothing was committed meanwhile (or the log passed
   * `FORCE_FINISH_BYTES`): the committing connection checkpoints now — with nothing left to
   * copy it takes no time — which lets SQLite start the log from its beginning again.
   */
  finish: () => void;
  /** The worker failed or could not start: checkpointing is the caller's again. */
  onFailed: (message: string) => void;
}

/** Bytes committed between two checkpoints: SQLite's own default is 1,000 pages, 4 MiB. */
const CHECKPOINT_BYTES = 4 << 20;
/**
 * The log's size (bytes committed since it last started over) past which the committing
 * connection copies what is left itself even though commits keep coming (its checkpoint then
 * syncs the database file: 20–40 ms here), rather than let the worker pass again.
 */
const FORCE_FINISH_BYTES = 32 << 20;
/** How long closing waits for the worker to close its connection before ending its thread anyway. */
const CLOSE_WAIT_MS = 5_000;

export class WalCheckpointer {
  private readonly worker: Worker;
  private running = false;
  private failed = false;
  /** Bytes committed since the last pass began (during it, while one runs). */
  private bytes = 0;
  /** Bytes committed since the log last started over (the committing connection's last checkpoint). */
  private logBytes = 0;
  /** Checkpoint passes the worker has finished. */
  passes = 0;

  private constructor(private readonly options: WalCheckpointerOptions) {
    const module = createRequire(path.join(options.projectDir, 'package.json')).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: options.file, module } });
    // A checkpoint never holds the server open; closing the store ends the worker.
    this.worker.unref();
    this.worker.on('message', (message: { ok: boolean; message?: string }) => {
      this.running = false;
      if (!message.ok) return this.fail(`a checkpoint failed: ${message.message}`);
      this.passes += 1;
      this.passEnded();
    });
    this.worker.on('error', (error) => this.fail(errorMessage(error)));
    this.worker.on('exit', (code) => {
      if (code !== 0) this.fail(`its thread exited with code ${code}`);
    });
  }

  /** A checkpointer for this file, or undefined (with `onFailed` called) when its worker cannot be made. */
  static start(options: WalCheckpointerOptions): WalCheckpointer | undefined {
    try {
      return new WalCheckpointer(options);
    } catch (error) {
      options.onFailed(`the checkpoint thread could not start: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** A transaction of about this many bytes was committed: past `CHECKPOINT_BYTES` since the last pass, the worker checkpoints. */
  committed(bytes: number): void {
    this.bytes += bytes;
    this.logBytes += bytes;
    if (!this.running && !this.failed && this.bytes >= CHECKPOINT_BYTES) this.pass();
  }

  /**
   * Closes the worker's connection (after a pass under way) and ends its thread. The caller's
   * connection, closed after this, is then the last: SQLite checkpoints what is left and
   * removes the log (a log left behind keeps its size: the next store's log starts that big).
   */
  async close(): Promise<void> {
    if (this.failed) return;
    this.failed = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private pass(): void {
    this.running = true;
    this.bytes = 0;
    this.worker.postMessage('checkpoint');
  }

  /**
   * The log is all copied when nothing was committed during the pass: the committing
   * connection's checkpoint then copies nothing (0.1 ms, no sync) and lets the log start over.
   * Else the worker passes again (each pass copies only what came since), unless the log has
   * grown past `FORCE_FINISH_BYTES`.
   */
  private passEnded(): void {
    if (this.failed) return;
    if (this.bytes > 0 && this.logBytes < FORCE_FINISH_BYTES) return this.pass();
    this.logBytes = 0;
    this.options.finish();
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onFailed(message);
    void this.worker.terminate();
  }
}
