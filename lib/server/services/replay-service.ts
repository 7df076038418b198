import type { ReplayRequest } from '../../contract/replay';
import { LoopscopeError } from '../../errors';
import { driverOf } from '../../runtimes/drivers';
import { dialectOf } from '../../runtimes/index';
import { readReplayable } from '../../runtimes/read-recording';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context-ports';
import { recordingSourceOf } from '../traces/recording-source';
import type { RunSession } from './run-registry';
import { loadTraceSource } from '../traces/trace-source';

// The request is part of the wire contract; the route imports it from here.
export { ReplayRequestSchema, type ReplayRequest } from '../../contract/replay';

type Overrides = { modelResponses?: [string, Record<string, unknown>][]; toolOutcomes?: [string, { kind: 'output'; output: unknown }][] };

/** True when some call of these spans replays in its runtime's own host, which reads no files: the server reads the recording then. */
function readHere(spans: readonly Span[]): boolean {
  return spans.some((span) => {
    const runtime = dialectOf(span)?.id;
    return runtime !== undefined && driverOf(runtime)?.replay?.runsIn === 'runtime-host';
  });
}

/** The fork's override and its words, checked against what the recording holds. */
function forkOf(options: { request: ReplayRequest; read: { runtime: string; recording: unknown } }): { overrides: Overrides; fork: string } {
  const fork = options.request.fork!;
  const points = driverOf(options.read.runtime)!.replay!.forkPoints(options.read.recording);
  if (fork.kind === 'tool') {
    const execution = points.tools.find((candidate) => candidate.key === fork.span);
    if (!execution) throw new LoopscopeError('NOT_FOUND', `The recording has no tool call ${fork.span} to fork from.`);
    if (execution.outcome !== 'output') throw new LoopscopeError('FAILED_PRECONDITION', `${execution.name} did not finish with an output (it ${execution.outcome === 'interrupt' ? 'interrupted: answer it with the resume workbench' : 'failed'}); fork from a finished call.`);
    return { overrides: { toolOutcomes: [[fork.span, { kind: 'output', output: fork.output }]] }, fork: `${execution.name} answers ${JSON.stringify(fork.output)}` };
  }
  if (!points.models) throw new LoopscopeError('FAILED_PRECONDITION', points.modelForkRefusal ?? 'This recording cannot fork a model answer: fork from a tool call.');
  const call = points.models.find((candidate) => candidate.key === fork.span);
  if (!call) throw new LoopscopeError('NOT_FOUND', `The recording has no finished model call ${fork.span} to fork from.`);
  const said = JSON.stringify(fork.message.content);
  return { overrides: { modelResponses: [[fork.span, { ...call.response, message: fork.message }]] }, fork: `model call ${call.ordinal} answers ${said.length > 80 ? `${said.slice(0, 77)}…` : said}` };
}

/**
 * Starts a replay of a saved file or captured traces as a run of its own, with the runtime that
 * recorded it — in a node runner (genkit JS on a fresh instance, the AI SDK's real
 * generateText), or in the runtime's own host (genkit Go's loop in the Go runner) — models from
 * the recording, tools stubbed or the local ones; its spans are captured like any run's, and the
 * run ends with the comparison report. A fork is a lenient replay with one recorded answer
 * replaced: what follows shows what changes.
 */
export async function startReplay(context: AppContext, request: ReplayRequest): Promise<RunSession> {
  // The runner reads the recording from where it is; missing traces or files are refused here.
  const source = await recordingSourceOf(context.store, request.source);
  const spans = await loadTraceSource(context, request.source);
  // A fork names a recorded call: the recording read here says whether it has one.
  const read = request.fork !== undefined || readHere(spans) ? readReplayable(spans) : undefined;
  const { overrides, fork } = request.fork && read ? forkOf({ request, read }) : { overrides: {} as Overrides, fork: undefined };
  const mode = request.fork ? 'lenient' : request.mode;
  const label = 'file' in request.source ? request.source.file : `${request.source.traceIds.length} trace(s)`;
  const run = context.runs.create({ label: `${fork ? 'fork' : 'replay'} of ${label}`, replay: { source: request.source, liveTools: request.liveTools, mode, ...(fork ? { fork } : {}) } });
  const inHost = read !== undefined && driverOf(read.runtime)?.replay?.runsIn === 'runtime-host';
  const replayed = inHost
    ? context.goRunner.replay({
        recording: read.recording as never,
        liveTools: request.liveTools,
        mode,
        overrides: { modelResponses: new Map(overrides.modelResponses ?? []), toolOutcomes: new Map(overrides.toolOutcomes ?? []) },
      })
    : context.supervisor.replay({ runId: run.runId, recording: source, liveTools: request.liveTools, mode, overrides });
  void replayed.then((result) => context.runs.completeReplay(run.runId, result));
  return run;
}
