/**
 * `loopscope replay <file…> [--live-tools] [--lenient] [--json]`: replays the recorded run
 * with the runtime that recorded it — genkit, or the Vercel AI SDK's generateText — models
 * answering from the recording, tools stubbed from it (or the local tools of tools/, or
 * tools/ai-sdk/, with --live-tools). Exit 0 when the replay matches the recording, 1 when it
 * diverges (the first divergence printed: which call, which field).
 */
import path from 'node:path';
import { readReplayable } from '../replay/read-recording';
import { renderReplayText, type ReplayReport } from '../replay/replay-report';
import { replayRecording } from '../replay/run-replay';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';
import { LoopscopeError } from '../errors';

/** Runs `loopscope replay` and returns its exit code; `write` receives what goes to stdout. */
export async function replayCommand({ files, flags, write }: { files: string[]; flags: Set<string>; write: (text: string) => void }): Promise<number> {
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'replay needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const read = readReplayable(spans);
  const toolsDir = path.resolve(process.env.LOOPSCOPE_TOOLS_DIR ?? 'tools');
  const mode = flags.has('--lenient') ? 'lenient' : 'strict';
  let report: ReplayReport;
  if (read.runtime === 'ai-sdk') {
    const { replayAiSdkRecording } = await import('../runtime/ai-sdk/replay-ai-sdk');
    let liveTools: Awaited<ReturnType<typeof import('../runtime/ai-sdk/load-ai-sdk-tools').loadAiSdkTools>>['tools'] | undefined;
    if (flags.has('--live-tools')) {
      const { loadAiSdkTools } = await import('../runtime/ai-sdk/load-ai-sdk-tools');
      const catalog = await loadAiSdkTools(path.join(toolsDir, 'ai-sdk'));
      for (const problem of catalog.problems) process.stderr.write(`loopscope: tools/ai-sdk/${problem.file}: ${problem.message}\n`);
      liveTools = catalog.tools;
    }
    report = await replayAiSdkRecording(read.recording, { mode, liveTools });
  } else {
    const liveTools = flags.has('--live-tools')
      ? async (ai: import('genkit/beta').GenkitBeta) => {
          const { loadToolModules } = await import('../runtime/load-tools');
          const loaded = await loadToolModules(ai, toolsDir);
          for (const problem of loaded.problems) process.stderr.write(`loopscope: tools/${problem.file}: ${problem.message}\n`);
        }
      : undefined;
    report = await replayRecording(read.recording, { mode, liveTools });
  }
  write(flags.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${renderReplayText(report)}\n`);
  return report.matched ? 0 : 1;
}
