/**
 * `loopscope resume <file> …` without `--dry-run`: the driver of the runtime that recorded the
 * paused call checks the answers by that runtime's rules and runs the answering call in this
 * process (lib/runtimes/answer-here.ts: genkit JS in-process, the AI SDK's generateText, genkit
 * Go in a Go runner of this process); this command stores the new trace in the data dir (or
 * through a running server's receiver) and prints the graph of the paused trace plus the new one.
 * It mirrors the web app's resume: the same rules, the same runner facts, the recorded history and
 * model as they were. Saved files are never modified.
 *
 * Exit codes: 0 the answering call returned (finished, or paused again); 1 an answer breaks a rule
 * (nothing runs), or the runtime rejected or failed the call (its message on stderr; the trace it
 * recorded is still stored and printed); 2 (thrown, see main.ts) bad input, or the recorded model
 * is not defined here.
 */
import path from 'node:path';
import type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ValueAnswer } from '../contract/resume-answers';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import type { ResumeIssue } from '../loop/resume-model';
import { answeredElsewhere } from '../runtimes/answer-target';
import { driverOf } from '../runtimes/drivers';
import { resumeContextFrom, type ResumeContext } from '../runtimes/resume-context';
import { LoopscopeError } from '../errors';
import { loadTraceFile } from '../store/load-trace-file';
import { DIALECTS, dialectTitle } from '../runtimes/index';
import { cliInstall, cliPaths } from './cli-paths';
import { storeNewTrace } from './store-new-trace';

export interface ResumeCommandOptions {
  file: string;
  respond: RespondAnswer[];
  restart: RestartAnswer[];
  /** Approval answers (the AI SDK's). */
  approve: ApproveAnswer[];
  deny: DenyAnswer[];
  /** Resume values (Google ADK, LangGraph: checked with --dry-run only). */
  values?: ValueAnswer[];
  json: boolean;
}

/** Where things live, from the same settings the server and the runner read. */
function settings() {
  const install = cliInstall();
  const { toolsDir, dataDir, savedDir } = cliPaths(install);
  return {
    /** Loopscope's own folder (go/runner, tools/go). */
    projectDir: install.root,
    toolsDir,
    scenariosDir: path.resolve(process.env.LOOPSCOPE_SCENARIOS_DIR ?? path.join(toolsDir, 'scenarios')),
    dataDir,
    savedDir,
    toolTimeoutMs: Number(process.env.LOOPSCOPE_TOOL_TIMEOUT_MS ?? 30_000),
    // A running server on this machine (docs/settings.md: PORT, default 4747) stores the trace itself.
    serverUrl: `http://127.0.0.1:${Number(process.env.PORT) > 0 ? Number(process.env.PORT) : 4747}`,
  };
}

/** A folder as the user would type it: relative inside the project, absolute outside. */
function shown(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? folder : relative;
}

const write = (stream: NodeJS.WriteStream, lines: string[]) => stream.write(`${lines.join('\n')}\n`);

/** Nothing ran: the broken rules, like `--dry-run` names them. */
function refuse(options: { context: ResumeContext; errors: ResumeIssue[]; warnings: ResumeIssue[]; json: boolean }): number {
  const { context, errors, warnings } = options;
  if (options.json) {
    write(process.stdout, [JSON.stringify({ ok: false, errors, warnings }, null, 2)]);
  } else {
    write(process.stdout, [
      `The answer to the paused call in trace ${context.traceId} was refused; nothing ran:`,
      ...errors.map((issue) => `error ${issue.code}: ${issue.message}`),
      ...warnings.map((issue) => `warning: ${issue.message}`),
    ]);
  }
  return 1;
}

/** Runs the answer and prints the graph of the paused trace plus the new one. */
export async function runResumeCommand(options: ResumeCommandOptions): Promise<number> {
  const where = settings();
  const recorded = await loadTraceFile(options.file);
  const context = resumeContextFrom(recorded);
  // Loopscope checks the answers of runtimes it does not run (the agent frameworks) and prints them as the app's code: --dry-run.
  const elsewhere = DIALECTS.find((dialect) => dialect.id === context.dialect)?.resume?.elsewhere;
  if (elsewhere) throw new LoopscopeError('FAILED_PRECONDITION', `${elsewhere.why} Check the answer with --dry-run: it prints the answer as ${dialectTitle(context.dialect)} code to run in your app.`);
  if ((options.values ?? []).length > 0) throw new LoopscopeError('INVALID_ARGUMENT', `--value answers a pause of a runtime Loopscope does not run; ${dialectTitle(context.dialect)} takes its answers by --respond / --restart / --approve / --deny.`);
  const here = driverOf(context.dialect)?.answer?.here;
  if (!here) throw new LoopscopeError('FAILED_PRECONDITION', answeredElsewhere(context));
  const result = await here({
    context,
    request: { source: { file: options.file }, respond: options.respond, restart: options.restart, approve: options.approve, deny: options.deny },
    where,
    warn: (text) => process.stderr.write(text),
    receiveSpans: async () => {
      const receiver = await (await import('../server/ingest/loopback-receiver')).startLoopbackReceiver();
      return {
        endpoint: receiver.endpoint,
        token: receiver.token,
        close: () => receiver.close(),
        spansOf: async (traceIds) => (await Promise.all(traceIds.map(async (traceId) => (await receiver.store.get(traceId)) ?? []))).flat(),
      };
    },
  });
  if ('refused' in result) return refuse({ context, ...result.refused, json: options.json });

  const stored = await storeNewTrace({ spans: result.spans, dataDir: where.dataDir, savedDir: where.savedDir, serverUrl: where.serverUrl });
  if (stored.note) process.stderr.write(`loopscope: note: ${stored.note}.\n`);
  const graph = buildRunGraph([...recorded.filter((span) => span.traceId === context.traceId), ...result.spans]);
  if (options.json) {
    write(process.stdout, [JSON.stringify(graph, null, 2)]);
  } else {
    const place = stored.via === 'server' ? `stored by the server at ${where.serverUrl}` : `stored in ${shown(where.dataDir)}/`;
    write(process.stdout, [`${result.headline}: new trace ${stored.traceIds.join(', ')} (${result.spans.length} spans, ${place}).`, '']);
    process.stdout.write(renderGraphText(graph));
  }
  if (result.failure) {
    process.stderr.write(`loopscope: ${result.failure}\n`);
    return 1;
  }
  if (result.started !== undefined && result.spans.length !== result.started) {
    process.stderr.write(`loopscope: only ${result.spans.length} of the ${result.started} spans the answering call started were captured; the stored trace is incomplete.\n`);
    return 1;
  }
  return 0;
}
