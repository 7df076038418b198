/**
 * `loopscope replay <file…> [--live-tools] [--lenient] [--json]`: replays the recorded run
 * with genkit, models answering from the recording, tools stubbed from it (or the local tools
 * of tools/ with --live-tools). Exit 0 when the replay matches the recording, 1 when it
 * diverges (the first divergence printed: which call, which field).
 */
import path from 'node:path';
import { readRecording } from '../replay/read-recording';
import { renderReplayText } from '../replay/replay-report';
import { replayRecording } from '../replay/run-replay';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';
import { LoopscopeError } from '../errors';

/** Runs `loopscope replay` and returns its exit code; `write` receives what goes to stdout. */
export async function replayCommand({ files, flags, write }: { files: string[]; flags: Set<string>; write: (text: string) => void }): Promise<number> {
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'replay needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const recording = readRecording(spans);
  const toolsDir = path.resolve(process.env.LOOPSCOPE_TOOLS_DIR ?? 'tools');
  const liveTools = flags.has('--live-tools')
    ? async (ai: import('genkit/beta').GenkitBeta) => {
        const { loadToolModules } = await import('../runtime/load-tools');
        const loaded = await loadToolModules(ai, toolsDir);
        for (const problem of loaded.problems) process.stderr.write(`loopscope: tools/${problem.file}: ${problem.message}\n`);
      }
    : undefined;
  const report = await replayRecording(recording, { mode: flags.has('--lenient') ? 'lenient' : 'strict', liveTools });
  write(flags.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${renderReplayText(report)}\n`);
  return report.matched ? 0 : 1;
}
