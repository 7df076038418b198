import { LoopscopeError } from '../errors';
import type { ResumeRequest } from '../runtime/runner-protocol';
import type { Span } from '../trace/span';
import type { AppContext } from './app-context';
import type { RunSession } from './run-registry';

/** Starts a scenario run; returns at once with the run, whose progress arrives on the bus. */
export async function startRun(context: AppContext, scenarioName: string): Promise<RunSession> {
  await context.supervisor.whenReady(15_000);
  const known = context.supervisor.status.scenarios.some((scenario) => scenario.name === scenarioName);
  if (!known) throw new LoopscopeError('NOT_FOUND', `No scenario named "${scenarioName}" in tools/scenarios/.`);
  const run = context.runs.create(scenarioName);
  void context.supervisor.generate({ runId: run.runId, scenario: scenarioName }).then((result) => context.runs.complete(run.runId, result));
  return run;
}

/**
 * Resumes an interrupted run. Without an explicit answer, the scenario's own scripted answer
 * for this resume is used.
 */
export function resumeRun(context: AppContext, runId: string, resume?: ResumeRequest): RunSession {
  const run = context.runs.get(runId);
  if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId}.`);
  let answer = resume;
  if (!answer) {
    const scenario = context.supervisor.status.scenarios.find((candidate) => candidate.name === run.scenario);
    answer = scenario?.resumes?.[run.resumes];
    if (!answer) {
      throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${run.scenario}" has no scripted answer for resume ${run.resumes + 1}.`);
    }
  }
  const input = context.runs.resumeInput(runId, answer);
  void context.supervisor
    .generate({ runId, scenario: input.scenario, messages: input.messages, resume: input.resume })
    .then((result) => context.runs.complete(runId, result));
  return context.runs.get(runId) as RunSession;
}

/** Stores received spans and tells live pages about them. */
export async function ingestSpans(context: AppContext, spans: Span[]): Promise<void> {
  if (spans.length === 0) return;
  const { traceIds } = await context.store.append(spans);
  for (const traceId of traceIds) {
    context.bus.publish({ type: 'spans', traceId, spans: spans.filter((span) => span.traceId === traceId) });
  }
  context.bus.publish({ type: 'traces-changed', traceIds });
}
