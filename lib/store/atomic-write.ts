import { randomUUID } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, LoopscopeError } from '../errors';

export interface WriteFileAtomicOptions {
  /** When false, an existing file is never replaced: the write fails with ALREADY_EXISTS. Default true. */
  overwrite?: boolean;
  /**
   * When false, skips the fsyncs: the write stays atomic for readers and across a crash of
   * the process (rename), but not across a power loss. For files rewritten many times a
   * second (captured traces, their index); saved files keep the default. Default true.
   */
  durable?: boolean;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Writes a file so that readers see either the old or the new content, never a torn one:
 * the data goes to a uniquely named temp file in the same folder (rename is only atomic
 * within one file system), is fsynced, then renamed over the target. The temp file is
 * removed on failure.
 *
 * Keeps fs.writeFile's (file, data, options) shape, as a drop-in for it: the options hold
 * only optional settings (the one exception to docs/style.md's named-object rule besides
 * LoopscopeError, see lib/max-params-rule.test.ts).
 *
 * @throws LoopscopeError ALREADY_EXISTS (with `overwrite: false`), INTERNAL for I/O failures.
 */
// eslint-disable-next-line @typescript-eslint/max-params -- fs.writeFile's (file, data, options) shape, see above
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): Promise<void> {
  const overwrite = options.overwrite ?? true;
  const durable = options.durable ?? true;
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  let tempExists = false;
  try {
    const handle = await open(temp, 'wx');
    tempExists = true;
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    if (overwrite) {
      await rename(temp, target);
      tempExists = false;
    } else {
      // The temp name stays linked after this; `finally` removes it.
      await linkExclusive(temp, target);
    }
    if (durable) await syncFolder(path.dirname(target));
  } catch (error) {
    if (LoopscopeError.isInstance(error)) throw error;
    throw new LoopscopeError('INTERNAL', `Could not write ${target}: ${errorMessage(error)}`, { cause: error });
  } finally {
    if (tempExists) await unlink(temp).catch(() => undefined);
  }
}

/** Makes the rename itself durable; best effort (some platforms cannot open a folder). */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Durability of the folder entry is a bonus; the content is already synced.
  }
}

/**
 * `link` fails with EEXIST atomically, so two writers can never both "create" the file.
 * File systems without hard links fall back to check-then-rename (a small race, documented).
 */
async function linkExclusive(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') throw new LoopscopeError('ALREADY_EXISTS', `${target} already exists.`, { cause: error });
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errorCode(error) ?? '')) throw error;
    const existing = await open(target, 'r').then(
      (handle) => handle.close().then(() => true),
      () => false,
    );
    if (existing) throw new LoopscopeError('ALREADY_EXISTS', `${target} already exists.`);
    await rename(temp, target);
  }
}
