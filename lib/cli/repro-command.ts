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
import { exportRepro, reproFileName, type LocalToolModule } from '../replay/export-repro';
import { exportAiSdkRepro } from '../replay/export-ai-sdk-repro';
import { readReplayable } from '../replay/read-recording';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';
import { cliPaths } from './cli-paths';

/** The value of `--out FILE` or `--out=FILE`, if given. */
function outOption(argv: string[]): string | undefined {
  const at = argv.findIndex((argument) => argument === '--out' || argument.startsWith('--out='));
  if (at < 0) return undefined;
  const value = argv[at] === '--out' ? argv[at + 1] : argv[at].slice('--out='.length);
  if (!value || value.startsWith('--')) throw new LoopscopeError('INVALID_ARGUMENT', '--out needs a file name.');
  return value;
}

/** An import path from `fromDirectory` to `file`, as TypeScript writes one (`./tools/bank`: no extension, which tsc would refuse). */
function importPath(fromDirectory: string, file: string): string {
  const relative = path.relative(fromDirectory, file).split(path.sep).join('/').replace(/\.(ts|mts|js|mjs)$/, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The tool modules of `toolsDirectory` that define recorded tools, loaded once in a scratch genkit instance to learn which defines what. */
async function localToolModules({ toolsDirectory, fromDirectory, recorded, warn }: { toolsDirectory: string; fromDirectory: string; recorded: Set<string>; warn: (text: string) => void }): Promise<LocalToolModule[]> {
  const [{ genkit }, { loadToolModules }] = await Promise.all([import('genkit/beta'), import('../runtime/load-tools')]);
  const loaded = await loadToolModules(genkit({}), toolsDirectory);
  for (const problem of loaded.problems) warn(`loopscope: tools/${problem.file}: ${problem.message}\n`);
  const byFile = new Map<string, string[]>();
  for (const tool of loaded.tools) {
    if (recorded.has(tool.name)) byFile.set(tool.file, [...(byFile.get(tool.file) ?? []), tool.name]);
  }
  const missing = [...recorded].filter((name) => !loaded.tools.some((tool) => tool.name === name));
  if (missing.length > 0) warn(`loopscope: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not defined in ${toolsDirectory}: stubbed from the recording.\n`);
  return [...byFile].map(([file, tools]) => ({ importPath: importPath(fromDirectory, path.join(toolsDirectory, file)), tools }));
}

export async function reproCommand(options: { argv: string[]; files: string[]; flags: Set<string>; write: (text: string) => void; warn: (text: string) => void }): Promise<number> {
  const { argv, files, flags, write, warn } = options;
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'repro needs a trace file.');
  const out = outOption(argv);
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const read = readReplayable(spans);
  const fileName = out ? path.basename(out) : reproFileName(files[0]);
  if (read.runtime === 'genkit-go') {
    if (flags.has('--local-tools')) warn('loopscope: --local-tools imports genkit JS tool modules: the genkit Go repro keeps its tools stubbed from the recording.\n');
    const { exportGoRepro, goReproFileName } = await import('../replay/export-go-repro');
    return emit({ out, text: exportGoRepro(read.recording, { source: files.join(', '), fileName: out ? path.basename(out) : goReproFileName(files[0]) }), write });
  }
  if (read.runtime === 'ai-sdk') {
    if (flags.has('--local-tools')) warn('loopscope: --local-tools imports genkit tool modules: the AI SDK repro keeps its tools stubbed from the recording.\n');
    return emit({ out, text: exportAiSdkRepro(read.recording, { source: files.join(', '), fileName }), write });
  }
  const recording = read.recording;
  const useLocalTools = flags.has('--local-tools');
  const toolModules = useLocalTools
    ? await localToolModules({
        toolsDirectory: cliPaths().toolsDir,
        fromDirectory: path.resolve(out ? path.dirname(out) : '.'),
        recorded: new Set(recording.toolDefinitions.keys()),
        warn,
      })
    : undefined;
  const text = exportRepro(recording, { source: files.join(', '), fileName, useLocalTools, toolModules });
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
