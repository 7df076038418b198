import type { ReplayRequest } from '../../contract/replay';
import { isGenkitGoSpan } from '../../runtimes/genkit-go/read';
import { LoopscopeError } from '../../errors';
import { readReplayable } from '../../replay/read-recording';
import type { AppContext } from '../app-context';
import { recordingSourceOf } from '../traces/recording-source';
import type { RunSession } from './run-registry';
import { loadTraceSource } from '../traces/trace-source';

// The request is part of the wire contract; the route imports it from here.
export { ReplayRequestSchema, type ReplayRequest } from '../../contract/replay';

/**
 * Starts a replay of a saved file or captured traces as a run of its own: the runner replays
 * it with the runtime that recorded it — a fresh genkit instance, or the AI SDK's real
 * generateText, or genkit Go's own loop in the Go runner — (models from the recording; tools
 * stubbed, or the local ones),
 * its spans are captured like any run's, and the run ends with the comparison report. A fork
 * is a lenient replay with one recorded answer replaced: what follows shows what changes.
 */
export async function startReplay(context: AppContext, request: ReplayRequest): Promise<RunSession> {
  // The runner reads the recording from where it is; missing traces or files are refused here.
  const source = await recordingSourceOf(context.store, request.source);
  const overrides: { modelResponses?: [string, Record<string, unknown>][]; toolOutcomes?: [string, { kind: 'output'; output: unknown }][] } = {};
  let fork: string | undefined;
  // A genkit Go recording replays in the Go runner, which reads no files: it is read here (a fork's is anyway).
  const spans = await loadTraceSource(context, request.source);
  const read = request.fork !== undefined || spans.some(isGenkitGoSpan) ? readReplayable(spans) : undefined;
  if (request.fork && read) {
    // A fork names a recorded call: the recording read here says whether it has one.
    const { kind, span } = request.fork;
    if (kind === 'model' && read.runtime === 'ai-sdk') {
      throw new LoopscopeError('FAILED_PRECONDITION', 'Forking a model answer is genkit-only for now: in an AI SDK recording, fork from a tool call.');
    }
    const steps: { toolExecutions: { traceId: string; spanId: string; name: string; outcome: { kind: string } }[] }[] = read.recording.steps;
    if (kind === 'tool') {
      const execution = steps.flatMap((step) => step.toolExecutions).find((candidate) => `${candidate.traceId}:${candidate.spanId}` === span);
      if (!execution) throw new LoopscopeError('NOT_FOUND', `The recording has no tool call ${span} to fork from.`);
      if (execution.outcome.kind !== 'output') throw new LoopscopeError('FAILED_PRECONDITION', `${execution.name} did not finish with an output (it ${execution.outcome.kind === 'interrupt' ? 'interrupted: answer it with the resume workbench' : 'failed'}); fork from a finished call.`);
      overrides.toolOutcomes = [[span, { kind: 'output', output: request.fork.output }]];
      fork = `${execution.name} answers ${JSON.stringify(request.fork.output)}`;
    } else {
      const genkit = read.runtime === 'genkit-js' || read.runtime === 'genkit-go' ? read.recording : undefined;
      const call = (genkit?.steps ?? []).flatMap((step) => (step.kind === 'generate' ? step.modelCalls : [])).find((candidate) => `${candidate.traceId}:${candidate.spanId}` === span);
      if (!call?.response) throw new LoopscopeError('NOT_FOUND', `The recording has no finished model call ${span} to fork from.`);
      overrides.modelResponses = [[span, { ...call.response, message: request.fork.message }]];
      const said = JSON.stringify(request.fork.message.content);
      fork = `model call ${call.ordinal} answers ${said.length > 80 ? `${said.slice(0, 77)}…` : said}`;
    }
  }
  const mode = request.fork ? 'lenient' : request.mode;
  const label = 'file' in request.source ? request.source.file : `${request.source.traceIds.length} trace(s)`;
  const run = context.runs.create({ label: `${fork ? 'fork' : 'replay'} of ${label}`, replay: { source: request.source, liveTools: request.liveTools, mode, ...(fork ? { fork } : {}) } });
  const replayed =
    read?.runtime === 'genkit-go'
      ? context.goRunner.replay({
          recording: read.recording,
          liveTools: request.liveTools,
          mode,
          overrides: { modelResponses: new Map(overrides.modelResponses ?? []), toolOutcomes: new Map(overrides.toolOutcomes ?? []) },
        })
      : context.supervisor.replay({ runId: run.runId, recording: source, liveTools: request.liveTools, mode, overrides });
  void replayed.then((result) => context.runs.completeReplay(run.runId, result));
  return run;
}
