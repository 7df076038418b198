/**
 * `loopscope resume <file> --respond / --restart …` on an interrupted genkit Go call, without
 * `--dry-run`: checks the answers by genkit Go's rules (lib/dialects/genkit-go/resume-rules.ts,
 * with the same runner facts as the web app: lib/server/resume-targets.ts), builds and starts
 * the Go runner (go/runner, tools/go/), runs the resume in real genkit Go with its spans sent
 * over OTLP/HTTP to a receiver on loopback in this process, stores the new traces and prints the
 * graph of the interrupted trace plus them.
 *
 * Exit codes, as for genkit JS: 0 genkit Go returned (finished or interrupted again); 1 an
 * answer breaks a rule (nothing runs), or genkit Go failed the resume (its message on stderr;
 * the traces are still stored and printed); 2 (thrown) bad input, or the recorded model is not
 * a scripted model of tools/go/scenarios/.
 */
import path from 'node:path';
import type { RespondAnswer, RestartAnswer, ResumeIssue } from '../contract/resume-answers';
import { LoopscopeError } from '../errors';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import type { ResumeContext } from '../resume/resume-context';
import { validateResume } from '../resume/validate-resume';
import type { Span } from '../trace/span';
import { storeNewTrace } from './store-new-trace';

export interface GoResumeOptions {
  recorded: Span[];
  context: ResumeContext;
  respond: RespondAnswer[];
  restart: RestartAnswer[];
  json: boolean;
  where: { projectDir: string; dataDir: string; savedDir: string; serverUrl: string };
  refuse(issues: { errors: ResumeIssue[]; warnings: ResumeIssue[] }): number;
}

export async function runGoResumeCommand(options: GoResumeOptions): Promise<number> {
  const { context, where } = options;
  const [{ loadScenarios, isGenkitGoScenario }, { resumeTargetOf }, { buildGoRunner, startGoRunner }, { startLoopbackReceiver }] = await Promise.all([
    import('../runtime/scenario'),
    import('../server/resume-targets'),
    import('../runtime/genkit-go/go-runner'),
    import('../server/loopback-receiver'),
  ]);
  const scenarios = (await loadScenarios(path.join(where.projectDir, 'tools', 'go', 'scenarios'))).scenarios.filter(isGenkitGoScenario);
  const request = { source: { file: 'cli' }, respond: options.respond, restart: options.restart };
  // The runner first: its tools tell the resume types the rules check a restart's data against.
  const receiver = await startLoopbackReceiver();
  const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir: where.projectDir, binary: path.join(where.dataDir, 'go-runner') }), projectDir: where.projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token }).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  try {
    const target = resumeTargetOf({ status: { tools: [], aiSdkTools: [], models: [], scenarios: [], go: { scenarios, tools: runner.tools } }, context, request });
    const validation = validateResume({ context, respond: options.respond, restart: options.restart, localTools: target.localTools });
    if (validation.errors.length > 0) return options.refuse(validation);
    const unavailable = target.blockers.find((issue) => /which is not defined here/.test(issue.message));
    if (unavailable) throw new LoopscopeError('FAILED_PRECONDITION', unavailable.message);
    if (target.blockers.length > 0) return options.refuse({ errors: target.blockers, warnings: validation.warnings });
    for (const issue of validation.warnings) process.stderr.write(`loopscope: warning: ${issue.message}\n`);
    // What the rules could not check runs anyway: genkit Go's answer is the check.
    for (const issue of validation.unchecked ?? []) process.stderr.write(`loopscope: unchecked: ${issue.message}\n`);

    const command = target.command(validation);
    const result = await runner.generate({ scenario: command.scenario, messages: command.messages, resume: command.resume, answers: command.answers });
    const spans: Span[] = [];
    for (const traceId of result.traceIds ?? []) spans.push(...((await receiver.store.get(traceId)) ?? []));
    if (spans.length === 0) throw new LoopscopeError('INTERNAL', `The resume recorded no spans${result.failure ? ` (genkit Go: ${result.failure.message})` : ''}.`);
    const stored = await storeNewTrace({ spans, dataDir: where.dataDir, savedDir: where.savedDir, serverUrl: where.serverUrl });
    if (stored.note) process.stderr.write(`loopscope: note: ${stored.note}.\n`);
    const graph = buildRunGraph([...options.recorded.filter((span) => span.traceId === context.traceId), ...spans]);
    if (options.json) process.stdout.write(`${JSON.stringify(graph, null, 2)}\n`);
    else {
      const place = stored.via === 'server' ? `stored by the server at ${where.serverUrl}` : `stored in ${where.dataDir}`;
      process.stdout.write(`Resumed the interrupted genkit Go call of trace ${context.traceId}: new trace(s) ${stored.traceIds.join(', ')} (${spans.length} spans, ${place}).\n\n`);
      process.stdout.write(renderGraphText(graph));
    }
    if (result.failure) {
      process.stderr.write(`loopscope: genkit Go failed the resume: ${result.failure.status ? `${result.failure.status}: ` : ''}${result.failure.message}\n`);
      return 1;
    }
    return 0;
  } finally {
    await runner.stop();
    await receiver.close();
  }
}
