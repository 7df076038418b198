import path from 'node:path';
import { LoopscopeError } from '../../../errors';
import type { Span } from '../../../spans/span';
import type { AnswerHereOptions, AnswerHereResult } from '../../answer-here';
import { validateResume } from '../../validate-resume';
import { GENKIT_GO_DIALECT_ID } from '../read/dialect-id';
import { goResumeTarget } from './resume-target';

/**
 * A genkit Go resume from the command line: builds and starts the Go runner (go/runner with the
 * tools of tools/go/) — its tools tell the resume types the rules check a restart's data against —
 * checks the answers by genkit Go's rules, and runs the resume in real genkit Go, its spans sent
 * over OTLP/HTTP to a receiver on loopback in this process.
 */
export async function goAnswerHere(options: AnswerHereOptions): Promise<AnswerHereResult> {
  const { context, where } = options;
  const [{ loadScenarios }, { isGenkitGoScenario }, { buildGoRunner, startGoRunner }] = await Promise.all([import('../../../runner/scenario'), import('../read/genkit-go-scenario'), import('../run/go-runner')]);
  const scenarios = (await loadScenarios(path.join(where.projectDir, 'tools', 'go', 'scenarios'))).scenarios.filter(isGenkitGoScenario);
  const request = { ...options.request, restart: options.request.restart };
  const receiver = await options.receiveSpans();
  const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir: where.projectDir, binary: path.join(where.dataDir, 'go-runner') }), projectDir: where.projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token }).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  try {
    const tools = runner.tools.map((tool) => ({ description: '', file: 'go/', ...tool }));
    const target = goResumeTarget({ facts: { toolsByRuntime: { [GENKIT_GO_DIALECT_ID]: tools }, models: [], scenarios }, context, request });
    const validation = validateResume({ context, respond: request.respond, restart: request.restart, localTools: target.localTools });
    if (validation.errors.length > 0) return { refused: validation };
    const unavailable = target.blockers.find((issue) => /which is not defined here/.test(issue.message));
    if (unavailable) throw new LoopscopeError('FAILED_PRECONDITION', unavailable.message);
    if (target.blockers.length > 0) return { refused: { errors: target.blockers, warnings: validation.warnings } };
    for (const issue of validation.warnings) options.warn(`loopscope: warning: ${issue.message}\n`);
    // What the rules could not check runs anyway: genkit Go's answer is the check.
    for (const issue of validation.unchecked ?? []) options.warn(`loopscope: unchecked: ${issue.message}\n`);

    const command = target.command(validation);
    const result = await runner.generate({ scenario: command.scenario, messages: command.messages, resume: command.resume, answers: command.answers });
    const spans: Span[] = await receiver.spansOf(result.traceIds ?? []);
    if (spans.length === 0) throw new LoopscopeError('INTERNAL', `The resume recorded no spans${result.failure ? ` (genkit Go: ${result.failure.message})` : ''}.`);
    return {
      spans,
      ...(result.failure ? { failure: `genkit Go failed the resume: ${result.failure.status ? `${result.failure.status}: ` : ''}${result.failure.message}` } : {}),
      headline: `Resumed the interrupted genkit Go call of trace ${context.traceId}`,
    };
  } finally {
    await runner.stop();
    await receiver.close();
  }
}
