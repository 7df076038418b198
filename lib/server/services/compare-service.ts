import type { CompareResponse } from '../../contract/compare';
import { LoopscopeError } from '../../errors';
import { compareRuns } from '../../graph/compare-runs';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context';
import type { GenerateResult } from '../../runner/run-requests';

/** Plays a scenario to its end: its first call, then each scripted answer while it is interrupted. */
async function playToEnd(options: { call: (previous?: GenerateResult, resume?: unknown) => Promise<GenerateResult>; resumes: readonly unknown[] }): Promise<string[]> {
  const traceIds: string[] = [];
  let result = await options.call();
  traceIds.push(...result.traceIds);
  for (const resume of options.resumes) {
    if (result.failure || result.outcome?.finishReason !== 'interrupted') break;
    result = await options.call(result, resume);
    traceIds.push(...result.traceIds);
  }
  return traceIds;
}

async function spansOf(context: Pick<AppContext, 'store'>, traceIds: readonly string[]): Promise<Span[]> {
  const spans: Span[] = [];
  for (const traceId of traceIds) spans.push(...((await context.store.get(traceId)) ?? []));
  return spans;
}

/**
 * Runs a genkit Go scenario and the genkit JS scenario it mirrors — each with its scripted
 * answers, in its own runner — and compares the two runs (lib/graph/compare-runs.ts).
 * @throws LoopscopeError NOT_FOUND / FAILED_PRECONDITION naming the scenario that is missing or mirrors nothing.
 */
export async function compareMirroredScenario(context: AppContext, scenario: string): Promise<CompareResponse> {
  const go = (await context.goRunner.scenarios()).scenarios.find((candidate) => candidate.name === scenario);
  if (!go) throw new LoopscopeError('NOT_FOUND', `No genkit Go scenario named "${scenario}" in tools/go/scenarios/.`);
  if (!go.mirrors) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${scenario}" mirrors no genkit JS scenario (its "mirrors" field names none).`);
  await context.supervisor.whenReady(15_000);
  const js = context.supervisor.status.scenarios.find((candidate) => candidate.name === go.mirrors && (candidate.runtime ?? 'genkit-js') === 'genkit-js');
  if (!js || js.runtime === 'ai-sdk' || js.runtime === 'genkit-go') throw new LoopscopeError('NOT_FOUND', `Scenario "${scenario}" mirrors "${go.mirrors}", which is no genkit JS scenario in tools/scenarios/.`);
  const runId = `compare-${scenario}-${Date.now()}`;
  const [jsTraces, goTraces] = await Promise.all([
    playToEnd({
      resumes: js.resumes ?? [],
      call: (previous, resume) =>
        context.supervisor.generate({ runId, scenario: js.name, ...(previous ? { messages: previous.outcome?.messages, resume: resume as never, answers: previous.rootSpan } : {}) }),
    }),
    playToEnd({
      resumes: go.resumes ?? [],
      call: (previous, resume) => context.goRunner.generate({ scenario: go.name, ...(previous ? { messages: previous.outcome?.messages, resume: resume as never, answers: previous.rootSpan } : {}) }),
    }),
  ]);
  const comparison = compareRuns({ a: { label: js.name, spans: await spansOf(context, jsTraces) }, b: { label: go.name, spans: await spansOf(context, goTraces) } });
  return {
    a: { ...comparison.a, traceIds: jsTraces },
    b: { ...comparison.b, traceIds: goTraces },
    differences: comparison.differences,
    same: comparison.same,
  };
}
