/**
 * Acting on genkit Go (lib/runtimes/runtime-driver.ts): its calls run in the Go runner
 * (go/runner, built by the go toolchain), its recordings replay there with genkit Go's own loop,
 * and export as one Go program that needs only genkit Go.
 */
import path from 'node:path';
import { goResumeTarget } from './answer/resume-target';
import type { RuntimeDriver } from '../runtime-driver';
import { reproFileName } from '../../replay/repro-file-name';
import { genkitContinuation } from '../genkit-js/replay/genkit-continuation';
import { genkitForkPoints } from '../genkit-js/replay/genkit-fork-points';
import type { Recording } from '../genkit-js/read/recording';
import { GENKIT_GO_DIALECT_ID } from './read/dialect-id';
import { readGoRecording } from './read/recording';
import { goScriptedAnswer } from './run/scripted-answer';

const SCRIPTED_ONLY = 'genkit Go scenarios run on their scripted model only (the Go runner has no provider plugins).';

export const genkitGoDriver: RuntimeDriver = {
  runtime: GENKIT_GO_DIALECT_ID,
  scenarios: {
    // The Go runner, started for the first Go run; it has no provider plugins.
    runsIn: 'runtime-host',
    realModels: { openaiCompatible: SCRIPTED_ONLY, gemini: SCRIPTED_ONLY },
    answerOf: goScriptedAnswer,
  },
  answer: { target: goResumeTarget, here: async (options) => (await import('./answer/answer-here')).goAnswerHere(options) },
  replay: {
    // The Go runner reads no files: the server reads the recording and sends it the steps.
    runsIn: 'runtime-host',
    rank: 2,
    standaloneTools: true,
    forkPoints: genkitForkPoints,
    read: ({ index, resumeOf }) => readGoRecording({ index, continuation: genkitContinuation(resumeOf) }),
    /** In a Go runner of this process's own; its spans go to a receiver the caller starts, and are dropped, as a JS replay's are. */
    async replayHere({ recording, mode, liveTools, projectDir, dataDir, receiveSpans }) {
      const [{ buildGoRunner, startGoRunner }, { replayGoRecording }] = await Promise.all([import('./run/go-runner'), import('./replay/replay-go')]);
      const receiver = await receiveSpans();
      try {
        const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir, binary: path.join(dataDir, 'go-runner') }), projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token });
        try {
          return (await replayGoRecording(recording as Recording, { runner, mode, liveTools })).report;
        } finally {
          await runner.stop();
        }
      } finally {
        await receiver.close();
      }
    },
  },
  repro: {
    fileName: (source) => reproFileName(source, '.go'),
    async write({ recording, source, fileName, title, localTools }) {
      localTools?.warn('loopscope: --local-tools imports genkit JS tool modules: the genkit Go repro keeps its tools stubbed from the recording.\n');
      const { exportGoRepro } = await import('./repro/export-go-repro');
      return exportGoRepro(recording as Recording, { title, source, fileName });
    },
  },
};
