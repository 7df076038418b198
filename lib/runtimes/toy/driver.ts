/**
 * Acting on the toy loop (lib/runtimes/runtime-driver.ts): it runs in the node runner (its
 * engine), a paused call is answered there by the scenario's next call, and its recordings replay
 * there with the toy loop itself, tools played back. It has no repro export and no scenario
 * files (its scenarios are in code: run/toy-scenarios.ts).
 */
import type { RuntimeDriver } from '../runtime-driver';
import { toyResumeTarget } from './answer/resume-target';
import { TOY_DIALECT_ID } from './read/dialect-id';
import { readToyRecording, type ToyRecording } from './read/recording';
import { toyEngine } from './run/toy-engine';

export const toyDriver: RuntimeDriver = {
  runtime: TOY_DIALECT_ID,
  nodeEngine: toyEngine,
  answer: { target: toyResumeTarget },
  replay: {
    runsIn: 'node-runner',
    rank: 0,
    forkPoints: (recording) => ({
      tools: (recording as ToyRecording).calls.flatMap((call) => call.toolExecutions).map((execution) => ({ key: `${execution.traceId}:${execution.spanId}`, name: execution.name, outcome: execution.outcome.kind })),
      modelForkRefusal: 'The toy loop forks from a tool call only.',
    }),
    // An answering call continues the call whose pause it answered (the graph's linking).
    read: ({ index, resumeOf }) => readToyRecording({ index, continuation: resumeOf }),
    async replayHere({ recording, mode, liveTools }) {
      const { replayToyRecording } = await import('./replay/replay-toy');
      return replayToyRecording(recording as ToyRecording, { mode, liveTools });
    },
  },
};
