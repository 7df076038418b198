/**
 * `loopscope resume <file> …` without `--dry-run`: checks the answers, runs the resume with the
 * local tools and the real genkit runtime in this process, stores the new trace in the data dir
 * and prints its graph. Mirrors the web app's resume (lib/server/resume-service.ts): the same
 * validation, a restart needs the tool registered in tools/ (respond never does), the recorded
 * history and model are used as they were, and only locally registered tools are offered.
 *
 * Exit codes: 0 the resume ran and genkit returned a response (finished, or interrupted again);
 * 1 an answer breaks a rule (nothing runs), or genkit rejected or failed the resume (its message
 * on stderr; the trace it recorded is still stored and printed); 2 (thrown, see main.ts) bad
 * input, or the recorded model is not defined here.
 */
import path from 'node:path';
import { LoopscopeError } from '../errors';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import { unavailableModelMessage } from '../resume/model-availability';
import { resumeContextFrom, type ResumeContext } from '../resume/resume-context';
import { validateResume, type RespondAnswer, type RestartAnswer, type ResumeIssue } from '../resume/validate-resume';
import type { ApproveAnswer, DenyAnswer } from '../contract/resume-answers';
import { AI_SDK_DIALECT_ID } from '../dialects/ai-sdk/dialect-id';
import { GENKIT_GO_DIALECT_ID } from '../dialects/genkit-go/dialect-id';
import type { GenerateFailure } from '../runtime/runner-protocol';
import { loadTraceFile } from '../trace/load-trace-file';
import { cliInstall, cliPaths } from './cli-paths';
import { storeNewTrace } from './store-new-trace';

export interface ResumeCommandOptions {
  file: string;
  respond: RespondAnswer[];
  restart: RestartAnswer[];
  /** AI SDK traces: approval answers (ai-sdk-resume-command.ts runs them). */
  approve: ApproveAnswer[];
  deny: DenyAnswer[];
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
    // A running server on this machine (docs/architecture.md: PORT, default 4747) stores the trace itself.
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

/** The runner's runtime, built in this process: genkit, the tools in tools/, the scripted models. */
async function loadRuntime(toolsDir: string, scenariosDir: string) {
  // Imported only now (after the capture is registered): `graph` never pays for genkit.
  const [{ genkit }, { loadToolModules }, { loadScenarios, isGenkitScenario }, { defineScriptedModel }, { runGenerate }] = await Promise.all([
    import('genkit/beta'),
    import('../runtime/load-tools'),
    import('../runtime/scenario'),
    import('../runtime/scripted-model'),
    import('../runtime/run-generate'),
  ]);
  const ai = genkit({});
  const tools = await loadToolModules(ai, toolsDir);
  const scenarioList = await loadScenarios(scenariosDir);
  // The CLI resumes genkit traces only: AI SDK scenarios define no genkit model.
  const genkitScenarios = scenarioList.scenarios.filter(isGenkitScenario);
  for (const scenario of genkitScenarios) defineScriptedModel(ai, scenario);
  const problems = [...tools.problems, ...scenarioList.problems.map((problem) => ({ ...problem, file: `scenarios/${problem.file}` }))];
  return { ai, tools: tools.tools, problems, scenarios: new Map(genkitScenarios.map((scenario) => [scenario.name, scenario])), runGenerate };
}

/** Runs the resume and prints the graph of the interrupted trace plus the new one. */
export async function runResumeCommand(options: ResumeCommandOptions): Promise<number> {
  const { respond, restart } = options;
  const where = settings();
  const recorded = await loadTraceFile(options.file);
  const context = resumeContextFrom(recorded);
  if (context.dialect === AI_SDK_DIALECT_ID) {
    const { runAiSdkResumeCommand } = await import('./ai-sdk-resume-command');
    return runAiSdkResumeCommand({
      recorded,
      context,
      approve: options.approve,
      deny: options.deny,
      respond,
      json: options.json,
      where,
      refuse: ({ errors, warnings }) => refuse({ context, errors, warnings, json: options.json }),
    });
  }
  if (context.dialect === GENKIT_GO_DIALECT_ID) {
    const { runGoResumeCommand } = await import('./go-resume-command');
    return runGoResumeCommand({ recorded, context, respond, restart, json: options.json, where, refuse: ({ errors, warnings }) => refuse({ context, errors, warnings, json: options.json }) });
  }
  if (options.approve.length + options.deny.length > 0) {
    throw new LoopscopeError('INVALID_ARGUMENT', '--approve and --deny answer AI SDK approvals; this is a genkit trace: answer its interrupts with --respond or --restart.');
  }
  // Pure checks first: a broken rule costs no genkit import.
  const first = validateResume({ context, respond, restart });
  if (first.errors.length > 0) return refuse({ context, errors: first.errors, warnings: first.warnings, json: options.json });
  const model = context.model;
  if (!model) throw new LoopscopeError('FAILED_PRECONDITION', 'The interrupted generate did not record which model it called, so it cannot be resumed.');

  const { startInProcessCapture } = await import('../runtime/in-process-capture');
  const capture = await startInProcessCapture({ serviceName: 'loopscope-cli' });
  try {
    const runtime = await loadRuntime(where.toolsDir, where.scenariosDir);
    for (const problem of runtime.problems) process.stderr.write(`loopscope: warning: tools/${problem.file} was skipped: ${problem.message}\n`);
    const registered = new Map(runtime.tools.map((tool) => [tool.name, tool]));
    const validation = validateResume({ context, respond, restart, localTools: registered });
    const unregistered: ResumeIssue[] = restart
      .filter((answer) => !registered.has(answer.name))
      .map((answer) => ({
        code: 'FAILED_PRECONDITION',
        request: answer.ref ? `${answer.name}#${answer.ref}` : answer.name,
        message: `Cannot restart ${answer.name}: no tool of that name is registered in ${shown(where.toolsDir)}/ (respond works without it).`,
      }));
    if (unregistered.length > 0) return refuse({ context, errors: unregistered, warnings: validation.warnings, json: options.json });
    if (!(await runtime.ai.registry.lookupAction(`/model/${model}`))) {
      throw new LoopscopeError('FAILED_PRECONDITION', unavailableModelMessage(model));
    }
    // genkit pitfalls (docs/interrupt-model.md §7) are run, not refused: reproducing them is the point.
    for (const issue of validation.warnings) process.stderr.write(`loopscope: warning: ${issue.message}\n`);

    await capture.take(); // whatever loading traced is not part of the resume
    const result = await runtime.runGenerate({
      ai: runtime.ai,
      scenarios: runtime.scenarios,
      command: {
        type: 'generate',
        requestId: 'cli',
        runId: 'cli',
        scenario: '',
        model,
        // Only tools registered here can be offered; the model may still ask for others (NOT_FOUND).
        tools: context.tools.map((tool) => tool.name).filter((name) => registered.has(name)),
        messages: context.messages,
        resume: { respond, restart },
        answers: { traceId: context.traceId, spanId: context.spanId },
      },
      toolTimeoutMs: where.toolTimeoutMs,
    });
    const captured = await capture.take();
    if (captured.spans.length === 0) throw new LoopscopeError('INTERNAL', `The resume recorded no spans${result.failure ? ` (genkit: ${result.failure.message})` : ''}.`);

    const stored = await storeNewTrace({ spans: captured.spans, dataDir: where.dataDir, savedDir: where.savedDir, serverUrl: where.serverUrl });
    if (stored.note) process.stderr.write(`loopscope: note: ${stored.note}.\n`);
    const graph = buildRunGraph([...recorded.filter((span) => span.traceId === context.traceId), ...captured.spans]);
    if (options.json) {
      write(process.stdout, [JSON.stringify(graph, null, 2)]);
    } else {
      const place = stored.via === 'server' ? `stored by the server at ${where.serverUrl}` : `stored in ${shown(where.dataDir)}/`;
      write(process.stdout, [`Resumed the interrupted generate of trace ${context.traceId}: new trace ${stored.traceIds.join(', ')} (${captured.spans.length} spans, ${place}).`, '']);
      process.stdout.write(renderGraphText(graph));
    }
    return finish(result.failure, captured);
  } finally {
    await capture.shutdown().catch(() => undefined);
  }
}

/** The exit code once the trace is stored and printed. */
function finish(failure: GenerateFailure | undefined, captured: { spans: unknown[]; started: number }): number {
  if (failure) {
    process.stderr.write(`loopscope: genkit failed the resume: ${failure.message}\n`);
    return 1;
  }
  if (captured.spans.length !== captured.started) {
    process.stderr.write(`loopscope: only ${captured.spans.length} of the ${captured.started} spans the resume started were captured; the stored trace is incomplete.\n`);
    return 1;
  }
  return 0;
}
