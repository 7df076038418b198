import { sendStepCommand } from '../runners/step-command';
import type { ProviderChoice, RealModelChoice } from '../../contract/provider';
import { LoopscopeError } from '../../errors';
import type { ResumeRequest } from '../../runner/runner-protocol';
import type { Breakpoints, PauseDecision, RunMode } from '../../runner/step-protocol';
import { encodeOtlpJson } from '../../spans/otlp-json';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import { ingestSpans } from '../ingest/ingest-spans';
import type { RunSession } from './run-registry';
import type { StepCommand } from '../../runner/run-requests';
import { knownScenario, runHost, scenarioNamed } from '../runners/run-hosts';

/** Starts a scenario run; returns at once with the run, whose progress arrives on the bus. */
export async function startRun({ context, scenario: name, mode = { kind: 'run' }, provider }: { context: AppContext; scenario: string; mode?: RunMode; provider?: ProviderChoice }): Promise<RunSession> {
  const found = await scenarioNamed(context, name);
  if (!found) throw new LoopscopeError('NOT_FOUND', `No scenario named "${name}" in tools/scenarios/.`);
  // A real model plays the scenario's prompt and tools through the runtime's own plugin / provider.
  const real: RealModelChoice | undefined = provider && provider.kind !== 'scripted' ? provider : undefined;
  if (real) context.providers.check({ choice: real, support: found.support.realModels });
  const run = context.runs.create({ scenario: name, mode, ...(real ? { provider: real } : {}) });
  // Stepped by the runtime's own middleware, in whichever host runs it.
  void runHost(context, found.support.runsIn)
    .generate({ runId: run.runId, scenario: name, mode, ...(real ? { provider: real } : {}) })
    .then((result) => context.runs.complete(run.runId, result));
  return run;
}

/**
 * Resumes an interrupted run. Without an explicit answer, the scenario's own scripted answer
 * for this resume is used.
 */
export function resumeRun({ context, runId, resume }: { context: AppContext; runId: string; resume?: ResumeRequest }): RunSession {
  const run = context.runs.get(runId);
  if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId}.`);
  // Only a scenario's run is resumed in place (its scripted model goes on); a resume of a
  // recording or a replay is answered from the workbench, as a new run.
  if (run.scenario === undefined) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Run ${runId} (${run.label}) is not a scenario's run: answer its interrupt from the resume workbench.`);
  }
  const found = knownScenario(context, run.scenario);
  if (!found) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${run.scenario}" has no scripted answer for resume ${run.resumes + 1}.`);
  const answer = found.support.answerOf({ scenario: found.scenario, resumes: run.resumes, given: resume, onRealModel: run.provider !== undefined && run.provider.kind !== 'scripted', interrupts: run.interrupts });
  const input = context.runs.resumeInput(runId, answer);
  // The resume keeps the run's mode: restarted tools pause too.
  void runHost(context, found.support.runsIn)
    .generate({ runId, scenario: run.scenario, messages: input.messages, ...input.resume, mode: run.mode, answers: input.answers, ...providerOf(run) })
    .then((result) => context.runs.complete(runId, result));
  return context.runs.get(runId) as RunSession;
}

/** A run's resume plays on the model the run started on. */
function providerOf(run: RunSession): { provider?: RealModelChoice } {
  return run.provider && run.provider.kind !== 'scripted' ? { provider: run.provider } : {};
}

/** Sends a step command to the runner that runs the run: the genkit Go runner or a node runner. */
function stepCommand(context: AppContext, command: StepCommand) {
  return sendStepCommand(context, command);
}

// Importers of the run service keep finding the ingest step here.
export { ingestSpans };

/**
 * Stores spans of the built-in runners (they arrive over IPC, not as OTLP exports) and tells
 * live pages; with forwarding on, sends them upstream as one OTLP/HTTP JSON export, encoded
 * after the caller went on (the run is reported done without waiting for it), so upstream
 * gets the runner's spans as it gets an app's.
 */
export async function ingestRunnerSpans(context: AppContext, spans: Span[]): Promise<void> {
  // Nobody answers a request after this commit (the run is reported done before it): it waits for the server's next requests.
  await ingestSpans({ store: context.store, bus: context.bus, commit: 'behind' }, spans);
  const forwarder = context.forwarder;
  if (!forwarder || spans.length === 0) return;
  setImmediate(() => forwarder.forward({ body: new TextEncoder().encode(JSON.stringify(encodeOtlpJson(spans))), contentType: 'application/json', spans: spans.length }));
}

function runningRun(context: AppContext, runId: string): RunSession {
  const run = context.runs.get(runId);
  if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId}.`);
  if (run.status !== 'running') throw new LoopscopeError('FAILED_PRECONDITION', `Run ${runId} is ${run.status}: only a running run can be stepped.`);
  return run;
}

/**
 * Applies a decision at one pause. A decision that breaks the tool's schema is refused
 * with the broken rules unless it is forced (to see genkit's own reaction).
 */
export async function decidePause({ context, runId, pauseId, decision }: { context: AppContext; runId: string; pauseId: string; decision: PauseDecision }): Promise<{ warnings: string[] }> {
  runningRun(context, runId);
  const result = await stepCommand(context, { type: 'pause-decision', runId, pauseId, decision });
  if (!result.ok) {
    const detail = result.problems?.length ? `: ${result.problems.join('; ')}` : '';
    throw new LoopscopeError(result.problems?.length ? 'INVALID_ARGUMENT' : 'FAILED_PRECONDITION', `${result.message ?? 'The decision was not applied'}${detail}`);
  }
  return { warnings: result.problems ?? [] };
}

/** Step: lets the oldest pause go on; the run stops again at the next step. */
export async function stepRun(context: AppContext, runId: string): Promise<void> {
  const run = runningRun(context, runId);
  const [oldest] = run.pauses;
  if (!oldest) throw new LoopscopeError('FAILED_PRECONDITION', 'The run is not paused.');
  await decidePause({ context, runId, pauseId: oldest.pauseId, decision: { action: 'continue' } });
}

/** Continue: run on to the next breakpoint, interrupt or the end. */
export async function continueRun(context: AppContext, runId: string): Promise<void> {
  const run = runningRun(context, runId);
  const mode: RunMode = { kind: 'breakpoints', breakpoints: run.mode.breakpoints ?? { tools: [], modelTurns: [] } };
  await setRunMode({ context, runId, mode });
  for (const pause of run.pauses) await decidePause({ context, runId, pauseId: pause.pauseId, decision: { action: 'continue' } });
}

/** How long Stop waits for the run to end before it answers with the run as it is (it ends at once: request-stop.ts). */
const STOP_WAIT_MS = 5_000;

/**
 * Stop, for a run in any mode and on any runtime: its runner ends it at once — a tool that is
 * executing is not waited for, and a runner that cannot let go is killed and replaced — and its
 * trace says it was stopped (open spans closed as stopped). Answers with the run once it ended:
 * `stopped`, with the failure saying where it stopped.
 */
export async function stopRun(context: AppContext, runId: string): Promise<RunSession> {
  runningRun(context, runId);
  context.runs.markStopping(runId);
  const result = await stepCommand(context, { type: 'stop', runId });
  if (!result.ok) {
    context.runs.markStopping(runId, false);
    throw new LoopscopeError('FAILED_PRECONDITION', result.message ?? 'The run could not be stopped.');
  }
  return (await context.runs.whenEnded(runId, STOP_WAIT_MS)) ?? runningRun(context, runId);
}

/** Sets or clears breakpoints (also while paused); a run in step mode stays in step mode. */
export async function setBreakpoints({ context, runId, breakpoints }: { context: AppContext; runId: string; breakpoints: Breakpoints }): Promise<RunSession> {
  const run = runningRun(context, runId);
  await setRunMode({ context, runId, mode: { kind: run.mode.kind === 'step' ? 'step' : 'breakpoints', breakpoints } });
  return context.runs.get(runId) as RunSession;
}

async function setRunMode({ context, runId, mode }: { context: AppContext; runId: string; mode: RunMode }): Promise<void> {
  const result = await stepCommand(context, { type: 'set-mode', runId, mode });
  if (!result.ok) throw new LoopscopeError('FAILED_PRECONDITION', result.message ?? 'The mode could not be changed.');
  context.runs.setMode(runId, mode);
}
