import { readGenkitRecording, type Recording, type ResumeContinuation } from '../dialects/genkit-js/recording';
import { buildRunGraph, indexSpans } from '../graph/build-run-graph';
import type { Span } from '../trace/span';

/**
 * Reads the replayable chain out of any set of spans (one or several traces): the genkit
 * dialect reads the steps, and the graph's linking (lib/graph/match-resumes.ts — the one rule
 * for which resume answers which interrupt) says which step each resume continues. The graph is
 * built only when there is a resume to place.
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay or a generate did not record its input.
 */
export function readRecording(spans: readonly Span[]): Recording {
  let graph: ReturnType<typeof buildRunGraph> | undefined;
  const continuation = (generateId: string): ResumeContinuation | undefined => {
    graph ??= buildRunGraph(spans);
    const resume = graph.generates.find((generate) => generate.id === generateId)?.resume;
    if (!resume) return undefined;
    const pendingOutputs = new Map<string, unknown>();
    for (const resolution of resume.resolutions) {
      if (resolution.kind === 'pending') pendingOutputs.set(`${resolution.request.name}#${resolution.request.ref ?? ''}`, resolution.output);
    }
    return { answersGenerateId: resume.answersGenerateId, pendingOutputs };
  };
  return readGenkitRecording({ index: indexSpans(spans), continuation });
}
