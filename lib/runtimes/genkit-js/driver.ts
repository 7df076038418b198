/**
 * Acting on genkit JS (lib/runtimes/runtime-driver.ts): it runs in the node runner (its engine),
 * its recordings replay there on a fresh genkit instance (or here, for `loopscope replay`), and
 * export as one TypeScript program that needs only genkit.
 */
import { reproFileName } from '../../replay/repro-file-name';
import { genkitResumeTarget } from './answer/resume-target';
import type { RuntimeDriver } from '../runtime-driver';
import { GENKIT_DIALECT_ID } from './read/dialect-id';
import { readGenkitRecording, type Recording } from './read/recording';
import { genkitContinuation } from './replay/genkit-continuation';
import { genkitForkPoints } from './replay/genkit-fork-points';
import { genkitJsEngine } from './run/genkit-engine';
import { genkitScriptedAnswer } from './run/scripted-answer';

export const genkitJsDriver: RuntimeDriver = {
  runtime: GENKIT_DIALECT_ID,
  nodeEngine: genkitJsEngine,
  scenarios: { runsIn: 'node-runner', realModels: { openaiCompatible: true, gemini: true }, answerOf: genkitScriptedAnswer },
  answer: { target: genkitResumeTarget, here: async (options) => (await import('./answer/answer-here')).genkitAnswerHere(options) },
  replay: {
    // In a set of spans with calls of several runtimes, genkit JS's replay.
    runsIn: 'node-runner',
    rank: 3,
    standaloneTools: true,
    forkPoints: genkitForkPoints,
    read: ({ index, resumeOf }) => readGenkitRecording({ index, continuation: genkitContinuation(resumeOf) }),
    async replayHere({ recording, mode, liveTools, toolsDir, warn }) {
      const [{ replayRecording }, { loadToolModules }] = await Promise.all([import('./replay/run-replay'), import('./run/load-tools')]);
      return replayRecording(recording as Recording, {
        mode,
        liveTools: liveTools
          ? async (ai) => {
              const loaded = await loadToolModules(ai, toolsDir);
              for (const problem of loaded.problems) warn(`loopscope: tools/${problem.file}: ${problem.message}\n`);
            }
          : undefined,
      });
    },
  },
  repro: {
    fileName: (source) => reproFileName(source),
    async write({ recording, source, fileName, title, localTools }) {
      const [{ exportRepro }, { localToolModules }] = await Promise.all([import('./repro/export-repro'), import('./repro/local-tool-modules')]);
      const genkitRecording = recording as Recording;
      const toolModules = localTools
        ? await localToolModules({ toolsDirectory: localTools.toolsDirectory, fromDirectory: localTools.fromDirectory, recorded: new Set(genkitRecording.toolDefinitions.keys()), warn: localTools.warn })
        : undefined;
      return exportRepro(genkitRecording, { title, source, fileName, useLocalTools: localTools !== undefined, toolModules });
    },
  },
};

