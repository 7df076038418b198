/**
 * `loopscope resume <file> --approve / --deny / --respond …` on a paused AI SDK call, without
 * `--dry-run`: checks the answers by the SDK's rules with the tools of tools/ai-sdk/ (the same
 * rules and runner facts as the web app: lib/server/services/resume-targets.ts), runs the answering
 * `generateText` of the recorded call's scenario in this process with its spans captured
 * through `@ai-sdk/otel`, stores the new trace and prints the graph of both.
 *
 * Exit codes, as for genkit resumes: 0 the answering call returned (finished, or paused
 * again); 1 an answer breaks a rule (nothing runs), or the call failed (its message on stderr;
 * the trace is still stored and printed); 2 (thrown) bad input, or the recorded model is not a
 * scripted model of tools/scenarios/.
 */
import { randomBytes } from 'node:crypto';
import { LoopscopeError } from '../errors';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import type { ResumeContext } from '../resume/resume-context';
import { validateResume, type ResumeIssue } from '../runtimes/genkit-js/read/validate-resume';
import type { ApproveAnswer, DenyAnswer, RespondAnswer } from '../contract/resume-answers';
import type { Span } from '../spans/span';
import { storeNewTrace } from './store-new-trace';

export interface AiSdkResumeOptions {
  recorded: Span[];
  context: ResumeContext;
  approve: ApproveAnswer[];
  deny: DenyAnswer[];
  respond: RespondAnswer[];
  json: boolean;
  where: { toolsDir: string; scenariosDir: string; dataDir: string; savedDir: string; serverUrl: string; toolTimeoutMs: number };
  /** Prints what was refused, as `--dry-run` does; returns the exit code. */
  refuse(issues: { errors: ResumeIssue[]; warnings: ResumeIssue[] }): number;
}

export async function runAiSdkResumeCommand(options: AiSdkResumeOptions): Promise<number> {
  const { context, where } = options;
  const { startInProcessCapture } = await import('../runner/in-process-capture');
  const capture = await startInProcessCapture({ serviceName: 'loopscope-cli' });
  try {
    const [{ registerTelemetry }, { OpenTelemetry }, { loadAiSdkTools, aiSdkToolInfos }, { loadScenarios }, { runAiSdkCall }, { traceGenerate }, { resumeTargetOf }] = await Promise.all([
      import('ai'),
      import('@ai-sdk/otel'),
      import('../runtimes/ai-sdk/run/load-ai-sdk-tools'),
      import('../runner/scenario'),
      import('../runtimes/ai-sdk/run/run-ai-sdk-call'),
      import('../runner/answer-link'),
      import('../server/services/resume-targets'),
    ]);
    registerTelemetry(new OpenTelemetry());
    const catalog = await loadAiSdkTools(`${where.toolsDir}/ai-sdk`);
    for (const problem of catalog.problems) process.stderr.write(`loopscope: warning: tools/ai-sdk/${problem.file} was skipped: ${problem.message}\n`);
    const { scenarios } = await loadScenarios(where.scenariosDir);
    const aiSdkTools = await aiSdkToolInfos(catalog);
    const request = { source: { file: 'cli' }, respond: options.respond, restart: [], approve: options.approve, deny: options.deny };
    const target = resumeTargetOf({ status: { tools: [], aiSdkTools, models: [], scenarios }, context, request });
    const validation = validateResume({ context, ...request, localTools: target.localTools, signsApprovals: target.signsApprovals });
    if (validation.errors.length > 0) return options.refuse(validation);
    const unavailable = target.blockers.find((issue) => /which is not defined here/.test(issue.message));
    if (unavailable) throw new LoopscopeError('FAILED_PRECONDITION', unavailable.message);
    if (target.blockers.length > 0) return options.refuse({ errors: target.blockers, warnings: validation.warnings });
    for (const issue of validation.warnings) process.stderr.write(`loopscope: warning: ${issue.message}\n`);

    const command = target.command(validation);
    const scenario = scenarios.find((candidate) => candidate.runtime === 'ai-sdk' && candidate.name === command.scenario);
    if (!scenario || scenario.runtime !== 'ai-sdk') throw new LoopscopeError('FAILED_PRECONDITION', `No AI SDK scenario "${command.scenario}" in tools/scenarios/.`);
    await capture.take(); // whatever loading traced is not part of the answer
    const result = await traceGenerate({ answers: command.answers }, () =>
      runAiSdkCall({
        scenario,
        catalog,
        // This process signs and checks its own approvals: a secret of its own is enough.
        approvalSecret: randomBytes(32).toString('base64url'),
        toolTimeoutMs: where.toolTimeoutMs,
        messages: command.messages as never,
      }),
    );
    const captured = await capture.take();
    if (captured.spans.length === 0) throw new LoopscopeError('INTERNAL', `The answering call recorded no spans${result.failure ? ` (${result.failure.message})` : ''}.`);
    const stored = await storeNewTrace({ spans: captured.spans, dataDir: where.dataDir, savedDir: where.savedDir, serverUrl: where.serverUrl });
    if (stored.note) process.stderr.write(`loopscope: note: ${stored.note}.\n`);
    const graph = buildRunGraph([...options.recorded.filter((span) => span.traceId === context.traceId), ...captured.spans]);
    if (options.json) process.stdout.write(`${JSON.stringify(graph, null, 2)}\n`);
    else {
      const place = stored.via === 'server' ? `stored by the server at ${where.serverUrl}` : `stored in ${where.dataDir}`;
      process.stdout.write(`Answered the paused AI SDK call of trace ${context.traceId}: new trace ${stored.traceIds.join(', ')} (${captured.spans.length} spans, ${place}).\n\n`);
      process.stdout.write(renderGraphText(graph));
    }
    if (result.failure) {
      process.stderr.write(`loopscope: the AI SDK failed the answering call: ${result.failure.name ? `${result.failure.name}: ` : ''}${result.failure.message}\n`);
      return 1;
    }
    if (captured.spans.length !== captured.started) {
      process.stderr.write(`loopscope: only ${captured.spans.length} of the ${captured.started} spans the call started were captured; the stored trace is incomplete.\n`);
      return 1;
    }
    return 0;
  } finally {
    await capture.shutdown().catch(() => undefined);
  }
}
