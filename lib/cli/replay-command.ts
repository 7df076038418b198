/**
 * `loopscope replay <file…> [--live-tools] [--lenient] [--json]`: replays the recorded run
 * with the runtime that recorded it — genkit, the Vercel AI SDK's generateText, or genkit Go's
 * own loop in the Go runner (built from go/runner; its spans go to a loopback receiver and are
 * dropped, as a JS replay's are) — models answering from the recording, tools stubbed from it
 * (or the local tools of tools/, tools/ai-sdk/ or tools/go/, with --live-tools). Exit 0 when the replay matches the recording, 1 when it
 * diverges (the first divergence printed: which call, which field).
 */
import path from 'node:path';
import { readReplayable } from '../replay/read-recording';
import { renderReplayText, type ReplayReport } from '../replay/replay-report';
import { replayRecording } from '../replay/run-replay';
import { loadTraceFile } from '../trace/load-trace-file';
import type { Span } from '../trace/span';
import { LoopscopeError } from '../errors';
import { cliInstall, cliPaths } from './cli-paths';

/** Runs `loopscope replay` and returns its exit code; `write` receives what goes to stdout. */
export async function replayCommand({ files, flags, write }: { files: string[]; flags: Set<string>; write: (text: string) => void }): Promise<number> {
  if (files.length === 0) throw new LoopscopeError('INVALID_ARGUMENT', 'replay needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const read = readReplayable(spans);
  const { toolsDir } = cliPaths();
  const mode = flags.has('--lenient') ? 'lenient' : 'strict';
  let report: ReplayReport;
  if (read.runtime === 'genkit-go') {
    report = await replayInGoRunner({ recording: read.recording, mode, liveTools: flags.has('--live-tools') });
  } else if (read.runtime === 'ai-sdk') {
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

/** A genkit Go recording, replayed in a Go runner of this process's own (lib/runtime/genkit-go/replay-go.ts). */
async function replayInGoRunner(options: { recording: import('../dialects/genkit-js/recording').Recording; mode: 'strict' | 'lenient'; liveTools: boolean }): Promise<ReplayReport> {
  const [{ buildGoRunner, startGoRunner }, { replayGoRecording }, { startLoopbackReceiver }] = await Promise.all([
    import('../runtime/genkit-go/go-runner'),
    import('../runtime/genkit-go/replay-go'),
    import('../server/loopback-receiver'),
  ]);
  // go/runner is in Loopscope's own folder; the binary is built into the data folder.
  const install = cliInstall();
  const projectDir = install.root;
  const binary = path.join(cliPaths(install).dataDir, 'go-runner');
  const receiver = await startLoopbackReceiver();
  try {
    const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir, binary }), projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token });
    try {
      return (await replayGoRecording(options.recording, { runner, mode: options.mode, liveTools: options.liveTools })).report;
    } finally {
      await runner.stop();
    }
  } finally {
    await receiver.close();
  }
}
