import type { CompareResponse } from '../../contract/compare';
import { LoopscopeError } from '../../errors';
import { compareRuns } from '../../graph/compare-runs';
import type { GenerateResult } from '../../runner/run-requests';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import { runHost, scenarioNamed } from '../runners/run-hosts';

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
 * Runs a scenario and the scenario of another runtime it `mirrors` (a genkit Go scenario and the
 * genkit JS one it plays) — each with its scripted answers, in its own host — and compares the two
 * runs (lib/graph/compare-runs.ts).
 * @throws LoopscopeError NOT_FOUND / FAILED_PRECONDITION naming the scenario that is missing or mirrors nothing.
 */
export async function compareMirroredScenario(context: AppContext, name: string): Promise<CompareResponse> {
  const found = await scenarioNamed(context, name);
  if (!found) throw new LoopscopeError('NOT_FOUND', `No scenario named "${name}" that mirrors another (tools/go/scenarios/, tools/scenarios/).`);
  const mirrors = (found.scenario as { mirrors?: string }).mirrors;
  if (!mirrors) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${name}" mirrors no scenario of another runtime (its "mirrors" field names none).`);
  const other = await scenarioNamed(context, mirrors);
  if (!other || other.support === found.support) throw new LoopscopeError('NOT_FOUND', `Scenario "${name}" mirrors "${mirrors}", which is no scenario of another runtime.`);
  const runId = `compare-${name}-${Date.now()}`;
  const play = (side: NonNullable<typeof found>) =>
    playToEnd({
      resumes: (side.scenario as { resumes?: unknown[] }).resumes ?? [],
      call: (previous, resume) =>
        runHost(context, side.support.runsIn).generate({ runId, scenario: side.scenario.name, ...(previous ? { messages: previous.outcome?.messages, resume: resume as never, answers: previous.rootSpan } : {}) }),
    });
  // The mirrored scenario first (`a`), as the page shows it: genkit JS on the left, genkit Go on the right.
  const [mirroredTraces, ownTraces] = await Promise.all([play(other), play(found)]);
  const comparison = compareRuns({ a: { label: other.scenario.name, spans: await spansOf(context, mirroredTraces) }, b: { label: name, spans: await spansOf(context, ownTraces) } });
  return {
    a: { ...comparison.a, traceIds: mirroredTraces },
    b: { ...comparison.b, traceIds: ownTraces },
    differences: comparison.differences,
    same: comparison.same,
  };
}
