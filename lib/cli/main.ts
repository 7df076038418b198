/**
 * The `loopscope` command: `npm run -s loopscope -- <command>`.
 * Exit codes: 0 ok, 1 the check failed, 2 bad usage or unreadable input.
 */
import { errorMessage, LoopscopeError } from '../errors';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';

const USAGE = `Usage: loopscope <command> [options]

Commands:
  graph <file…> [--json]   the run graph of the given trace files (OTLP JSON / JSONL, Genkit TraceData)

Options:
  --json      print Graph JSON ({summary, generates, nodes, edges})
  --verbose   print stack traces of errors
  --help      this text
`;

class UsageError extends Error {}

async function graphCommand(files: string[], flags: Set<string>): Promise<number> {
  if (files.length === 0) throw new UsageError('graph needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const graph = buildRunGraph(spans);
  process.stdout.write(flags.has('--json') ? `${JSON.stringify(graph, null, 2)}\n` : renderGraphText(graph));
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv.filter((argument) => argument.startsWith('--')));
  const positional = argv.filter((argument) => !argument.startsWith('--'));
  const [command, ...rest] = positional;
  try {
    if (flags.has('--help') || command === undefined) {
      process.stdout.write(USAGE);
      return command === undefined && !flags.has('--help') ? 2 : 0;
    }
    const known = new Set(['--json', '--verbose', '--help']);
    const unknown = [...flags].filter((flag) => !known.has(flag));
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}.`);
    if (command === 'graph') return await graphCommand(rest, flags);
    throw new UsageError(`unknown command "${command}".`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`loopscope: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    // Unreadable or malformed input: one clear sentence, no stack unless asked.
    process.stderr.write(`loopscope: ${errorMessage(error)}\n`);
    if (flags.has('--verbose') && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return LoopscopeError.isInstance(error) && error.code === 'INTERNAL' ? 1 : 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
