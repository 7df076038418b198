/**
 * `loopscope repro <file…> [--out FILE] [--local-tools]`: one standalone TypeScript file that
 * reproduces the recorded run with plain genkit, or with `ai` alone for an AI SDK recording (to
 * attach to a bug report), printed or written to FILE. `--local-tools` (genkit) imports the
 * modules of tools/ that define the recorded tools instead of stubbing them. Exit 0 when
 * written; 2 on bad usage or unreadable input.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, LoopscopeError } from '../errors';
import { driverOf } from '../runtimes/drivers';
import { readReplayable } from '../runtimes/read-recording';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { cliPaths } from './cli-paths';

/** The value of `--out FILE` or `--out=FILE`, if given. */
function outOption(argv: string[]): string | undefined {
  const at = argv.findIndex((argument) => argument === '--out' || argument.startsWith('--out='));
  if (at < 0) return undefined;
  const value = argv[at] === '--out' ? argv[at + 1] : argv[at].slice('--out='.length);
  if (!value || value.startsWith('--')) throw new LoopscopeError('INVALID_ARGUMENT', '--out needs a file name.');
  return value;
}

export async function reproCommand(options: { argv: string[]; files: string[]; flags: Set<string>; write: (text: string) => void; warn: (text: string) => void }): Promise<number> {
  const { argv, files, flags, write, warn } = options;
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'repro needs a trace file.');
  const out = outOption(argv);
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const read = readReplayable(spans);
  const repro = driverOf(read.runtime)?.repro;
  if (!repro) throw new LoopscopeError('FAILED_PRECONDITION', `Recordings of ${read.runtime} cannot be exported as a repro.`);
  const localTools = flags.has('--local-tools')
    ? { toolsDirectory: cliPaths().toolsDir, fromDirectory: path.resolve(out ? path.dirname(out) : '.'), warn }
    : undefined;
  const fileName = out ? path.basename(out) : repro.fileName(files[0]);
  const text = await repro.write({ recording: read.recording, source: files.join(', '), fileName, localTools });
  return emit({ out, text, write });
}

/** Prints the file, or writes it to `out` and says how to run it. */
async function emit({ out, text, write }: { out: string | undefined; text: string; write: (text: string) => void }): Promise<number> {
  if (!out) {
    write(text);
    return 0;
  }
  try {
    await writeFile(out, text);
  } catch (error) {
    throw new LoopscopeError('INVALID_ARGUMENT', `cannot write ${out}: ${errorMessage(error)}`, { cause: error });
  }
  write(`Wrote ${out}; run it with: npx tsx ${out}\n`);
  return 0;
}
