/**
 * Checkpoints the captured traces' database (captured-db.ts) from a worker thread, so that the
 * server's event loop does not stop while SQLite copies the write-ahead log into the database
 * and syncs it.
 *
 * SQLite checkpoints by itself on the commit that takes the log past 1,000 pages (4 MiB), in
 * the committing thread: with a 62-span run's ~290 KB of spans that is every ~14 runs, and each
 * took 30–60 ms here, during which no request, span or event was handled (bench/store-checkpoint.ts).
 * Here the committing connection stops checkpointing (past a far larger safety bound), and
 * after each ~4 MiB committed asks a worker thread with its own connection for a passive
 * checkpoint (it never blocks a writer). SQLite starts the log from its beginning again only
 * when a commit begins with the whole log copied; a commit during the worker's pass leaves its
 * frames uncopied, and under a steady stream of commits (one every 30 ms, passes of 40 ms) the
 * log file grew by every byte written (measured). So the worker passes again while commits came
 * in during its pass (a few times at most), and then the committing connection checkpoints
 * what is left itself: usually nothing (0.1 ms), under commits without pause a few frames.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../errors';

/** The worker: opens the database once, and answers each request with one passive checkpoint. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, busy: result.busy, log: result.log, checkpointed: result.checkpointed });
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
   * The worker copied the whole log and nothing was committed meanwhile: the committing
   * connection checkpoints now (nothing left to copy, so it takes no time), which lets SQLite
   * start the log from its beginning again.
   */
  finish: () => void;
  /** The worker failed or could not start: checkpointing is the caller's again. */
  onFailed: (message: string) => void;
}

/** Bytes committed between two checkpoints: SQLite's own default is 1,000 pages, 4 MiB. */
const CHECKPOINT_BYTES = 4 << 20;
/**
 * Passes after the first, each copying what was committed during the one before, until one
 * ends with nothing new; past them the committing connection copies the rest itself.
 */
const MAX_EXTRA_PASSES = 3;

export class WalCheckpointer {
  private readonly worker: Worker;
  private running = false;
  private failed = false;
  /** Bytes committed since the last checkpoint began. */
  private bytes = 0;
  /** Commits since the running pass began. */
  private commitsDuringPass = 0;
  private extraPasses = 0;
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

  /** A transaction of about this many bytes was committed: past `CHECKPOINT_BYTES` since the last checkpoint, the worker checkpoints. */
  committed(bytes: number): void {
    this.bytes += bytes;
    this.commitsDuringPass += 1;
    if (!this.running && !this.failed && this.bytes >= CHECKPOINT_BYTES) {
      this.bytes = 0;
      this.extraPasses = 0;
      this.pass();
    }
  }

  /** Ends the worker (its connection closes with it). */
  async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }

  private pass(): void {
    this.running = true;
    this.commitsDuringPass = 0;
    this.worker.postMessage('checkpoint');
  }

  private passEnded(): void {
    if (this.failed) return;
    if (this.commitsDuringPass > 0 && this.extraPasses < MAX_EXTRA_PASSES) {
      this.extraPasses += 1;
      return this.pass();
    }
    this.options.finish();
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onFailed(message);
    void this.worker.terminate();
  }
}
