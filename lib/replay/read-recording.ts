import { AI_SDK_DIALECT_ID } from '../runtimes/ai-sdk/read';
import { readAiSdkRecording, type AiSdkRecording } from '../runtimes/ai-sdk/read/recording';
import { GENKIT_GO_DIALECT_ID } from '../runtimes/genkit-go/read/dialect-id';
import { readGoRecording } from '../runtimes/genkit-go/read/recording';
import { GENKIT_DIALECT_ID } from '../runtimes/genkit-js/read/dialect-id';
import { readGenkitRecording, type Recording, type ResumeContinuation } from '../runtimes/genkit-js/read/recording';
import { dialectOf } from '../runtimes/index';
import { LoopscopeError } from '../errors';
import { buildRunGraph, indexSpans } from '../graph/build-run-graph';
import type { Span } from '../spans/span';

/** A recording of either runtime Loopscope replays, named by its runtime. */
export type AnyRecording =
  | { runtime: 'genkit-js'; recording: Recording }
  | { runtime: 'genkit-go'; recording: Recording }
  | { runtime: 'ai-sdk'; recording: AiSdkRecording };

/** Which replayable runtime the calls of these spans belong to (genkit first in a mixed set), and the names of the others. */
function runtimesOf(spans: readonly Span[]) {
  const index = indexSpans(spans);
  const others = new Set<string>();
  let genkit = false;
  let go = false;
  let aiSdk = false;
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role !== 'generate' && role !== 'tool') continue;
    const dialect = dialectOf(span);
    if (dialect?.id === GENKIT_DIALECT_ID) genkit = true;
    else if (dialect?.id === GENKIT_GO_DIALECT_ID) go = true;
    else if (dialect?.id === AI_SDK_DIALECT_ID && role === 'generate') aiSdk = true;
    else if (dialect) others.add(dialect.title);
  }
  return { index, genkit, go, aiSdk, others };
}

/**
 * Reads the replayable chain out of any set of spans (one or several traces), in the words of
 * the runtime that recorded it: genkit JS's generates (in a mixed set, the genkit JS calls replay
 * and the others are left out), else genkit Go's (replayed in the Go runner), else the AI SDK's calls. The graph's linking
 * (lib/graph/match-resumes.ts — the one rule for which answer continues which paused call) says
 * which step each resume or answering call continues; it is built only when there is one to place.
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay or a call did not record its input.
 */
export function readReplayable(spans: readonly Span[]): AnyRecording {
  const { index, genkit, go, aiSdk, others } = runtimesOf(spans);
  let graph: ReturnType<typeof buildRunGraph> | undefined;
  const resumeOf = (generateId: string) => {
    graph ??= buildRunGraph(spans);
    return graph.generates.find((generate) => generate.id === generateId)?.resume;
  };
  if (!genkit && !go && aiSdk) {
    return { runtime: 'ai-sdk', recording: readAiSdkRecording({ index, continuation: (callId) => resumeOf(callId) }) };
  }
  if (!genkit && !go && others.size > 0) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Replay is not supported yet for ${[...others].join(' and ')} traces: only genkit JS, genkit Go and Vercel AI SDK calls can be replayed.`);
  }
  const continuation = (generateId: string): ResumeContinuation | undefined => {
    const resume = resumeOf(generateId);
    if (!resume) return undefined;
    const pendingOutputs = new Map<string, unknown>();
    for (const resolution of resume.resolutions) {
      if (resolution.kind === 'pending') pendingOutputs.set(`${resolution.request.name}#${resolution.request.ref ?? ''}`, resolution.output);
    }
    return { answersGenerateId: resume.answersGenerateId, pendingOutputs };
  };
  if (!genkit && go) return { runtime: 'genkit-go', recording: readGoRecording({ index, continuation }) };
  return { runtime: 'genkit-js', recording: readGenkitRecording({ index, continuation }) };
}

/**
 * The genkit recording in these spans (readReplayable for either runtime).
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay, the calls are the AI SDK's (read them with readReplayable), or a generate did not record its input.
 */
export function readRecording(spans: readonly Span[]): Recording {
  const read = readReplayable(spans);
  if (read.runtime !== 'genkit-js') throw new LoopscopeError('FAILED_PRECONDITION', `These are ${read.runtime === 'ai-sdk' ? 'Vercel AI SDK' : 'genkit Go'} calls: read them with readReplayable, which reads every runtime.`);
  return read.recording;
}
