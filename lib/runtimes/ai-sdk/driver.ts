/**
 * Acting on the Vercel AI SDK (lib/runtimes/runtime-driver.ts): it runs in the node runner (its
 * engine: the real generateText), its recordings replay with generateText on a model that
 * answers from the recording, and export as one program that imports only `ai`.
 */
import path from 'node:path';
import { reproFileName } from '../../replay/repro-file-name';
import { aiSdkResumeTarget } from './answer/resume-target';
import type { RuntimeDriver } from '../runtime-driver';
import { AI_SDK_DIALECT_ID } from './read/dialect-id';
import { readAiSdkRecording, type AiSdkRecording } from './read/recording';
import { aiSdkEngine } from './run/ai-sdk-engine';
import { aiSdkScriptedAnswer } from './run/scripted-answer';

export const aiSdkDriver: RuntimeDriver = {
  runtime: AI_SDK_DIALECT_ID,
  nodeEngine: aiSdkEngine,
  scenarios: {
    runsIn: 'node-runner',
    realModels: { openaiCompatible: true, gemini: 'Gemini is offered to genkit scenarios only (@ai-sdk/google is not installed).' },
    answerOf: aiSdkScriptedAnswer,
  },
  answer: { target: aiSdkResumeTarget, here: async (options) => (await import('./answer/answer-here')).aiSdkAnswerHere(options) },
  replay: {
    runsIn: 'node-runner',
    rank: 1,
    forkPoints: (recording) => ({
      tools: (recording as AiSdkRecording).steps.flatMap((step) => step.toolExecutions).map((execution) => ({ key: `${execution.traceId}:${execution.spanId}`, name: execution.name, outcome: execution.outcome.kind })),
      modelForkRefusal: 'Forking a model answer is genkit-only for now: in an AI SDK recording, fork from a tool call.',
    }),
    // An answering call continues the call whose pauses it answered (the graph's linking).
    read: ({ index, resumeOf }) => readAiSdkRecording({ index, continuation: (callId) => resumeOf(callId) }),
    async replayHere({ recording, mode, liveTools, toolsDir, warn }) {
      const { replayAiSdkRecording } = await import('./replay/replay-ai-sdk');
      let tools: Awaited<ReturnType<typeof import('./run/load-ai-sdk-tools').loadAiSdkTools>>['tools'] | undefined;
      if (liveTools) {
        const { loadAiSdkTools } = await import('./run/load-ai-sdk-tools');
        const catalog = await loadAiSdkTools(path.join(toolsDir, 'ai-sdk'));
        for (const problem of catalog.problems) warn(`loopscope: tools/ai-sdk/${problem.file}: ${problem.message}\n`);
        tools = catalog.tools;
      }
      return replayAiSdkRecording(recording as AiSdkRecording, { mode, liveTools: tools });
    },
  },
  repro: {
    fileName: (source) => reproFileName(source),
    async write({ recording, source, fileName, title, localTools }) {
      // The repro stubs tools from the recording: tools/ai-sdk/ modules are not imported.
      localTools?.warn('loopscope: --local-tools imports genkit tool modules: the AI SDK repro keeps its tools stubbed from the recording.\n');
      const { exportAiSdkRepro } = await import('./repro/export-ai-sdk-repro');
      return exportAiSdkRepro(recording as AiSdkRecording, { title, source, fileName });
    },
  },
};
