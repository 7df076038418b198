/**
 * `loopscope replay <file…> [--live-tools] [--lenient] [--json]`: replays the recorded run with
 * the runtime that recorded it (its driver's `replayHere`: genkit, the Vercel AI SDK's
 * generateText, or genkit Go's own loop in a Go runner of this process) — models answering from
 * the recording, tools stubbed from it (or the local tools, with --live-tools). Exit 0 when the
 * replay matches the recording, 1 when it diverges (the first divergence printed: which call,
 * which field).
 */
import { LoopscopeError } from '../errors';
import { renderReplayText } from '../replay/replay-report';
import { driverOf } from '../runtimes/drivers';
import { readReplayable } from '../runtimes/read-recording';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { cliInstall, cliPaths } from './cli-paths';

/** Runs `loopscope replay` and returns its exit code; `write` receives what goes to stdout. */
export async function replayCommand({ files, flags, write }: { files: string[]; flags: Set<string>; write: (text: string) => void }): Promise<number> {
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'replay needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const read = readReplayable(spans);
  const install = cliInstall();
  const paths = cliPaths(install);
  const replay = driverOf(read.runtime)?.replay;
  if (!replay?.replayHere) throw new LoopscopeError('FAILED_PRECONDITION', `Recordings of ${read.runtime} cannot be replayed from the command line.`);
  const report = await replay.replayHere({
    recording: read.recording,
    mode: flags.has('--lenient') ? 'lenient' : 'strict',
    liveTools: flags.has('--live-tools'),
    toolsDir: paths.toolsDir,
    projectDir: install.root,
    dataDir: paths.dataDir,
    warn: (text) => process.stderr.write(text),
    receiveSpans: async () => (await import('../server/ingest/loopback-receiver')).startLoopbackReceiver(),
  });
  write(flags.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${renderReplayText(report)}\n`);
  return report.matched ? 0 : 1;
}
