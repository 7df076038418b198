import { GENKIT_DIALECT_ID } from '../dialects/genkit-js/dialect-id';
import { readGenkitRecording, type Recording, type ResumeContinuation } from '../dialects/genkit-js/recording';
import { dialectOf } from '../dialects/registry';
import { LoopscopeError } from '../errors';
import { buildRunGraph, indexSpans } from '../graph/build-run-graph';
import type { Span } from '../trace/span';

/**
 * Reads the replayable chain out of any set of spans (one or several traces): the genkit
 * dialect reads the steps, and the graph's linking (lib/graph/match-resumes.ts — the one rule
 * for which resume answers which interrupt) says which step each resume continues. The graph is
 * built only when there is a resume to place.
 * Only genkit calls replay: spans of another runtime alone are refused in one sentence (in a
 * mixed set, the genkit calls replay and the others are left out).
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay, the calls are another runtime's, or a generate did not record its input.
 */
export function readRecording(spans: readonly Span[]): Recording {
  const index = indexSpans(spans);
  const others = new Set<string>();
  let genkit = false;
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role !== 'generate' && role !== 'tool') continue;
    const dialect = dialectOf(span);
    if (dialect?.id === GENKIT_DIALECT_ID) genkit = true;
    else if (dialect) others.add(dialect.title);
  }
  if (!genkit && others.size > 0) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Replay is not supported yet for ${[...others].join(' and ')} traces: only genkit JS calls can be replayed.`);
  }
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
  return readGenkitRecording({ index, continuation });
}
