import { randomBytes } from 'node:crypto';
import { LoopscopeError } from '../../../errors';
import type { AnswerHereOptions, AnswerHereResult } from '../../answer-here';
import { validateResume } from '../../validate-resume';
import { AI_SDK_DIALECT_ID } from '../read/dialect-id';
import { aiSdkResumeTarget } from './resume-target';

/**
 * An AI SDK answer in this process: checked by the SDK's rules with the tools of tools/ai-sdk/
 * (the same runner facts as the web app), then the answering `generateText` of the recorded
 * call's scenario, its spans captured through `@ai-sdk/otel`.
 */
export async function aiSdkAnswerHere(options: AnswerHereOptions): Promise<AnswerHereResult> {
  const { context, where } = options;
  const { startInProcessCapture } = await import('../../../runner/in-process-capture');
  const capture = await startInProcessCapture({ serviceName: 'loopscope-cli' });
  try {
    const [{ registerTelemetry }, { OpenTelemetry }, { loadAiSdkTools, aiSdkToolInfos }, { loadScenarios }, { runAiSdkCall }, { traceGenerate }] = await Promise.all([
      import('ai'),
      import('@ai-sdk/otel'),
      import('../run/load-ai-sdk-tools'),
      import('../../../runner/scenario'),
      import('../run/run-ai-sdk-call'),
      import('../../../runner/answer-link'),
    ]);
    registerTelemetry(new OpenTelemetry());
    const catalog = await loadAiSdkTools(`${where.toolsDir}/ai-sdk`);
    for (const problem of catalog.problems) options.warn(`loopscope: warning: tools/ai-sdk/${problem.file} was skipped: ${problem.message}\n`);
    const { scenarios } = await loadScenarios(where.scenariosDir);
    const request = { ...options.request, restart: [] };
    const target = aiSdkResumeTarget({ facts: { toolsByRuntime: { [AI_SDK_DIALECT_ID]: await aiSdkToolInfos(catalog) }, models: [], scenarios }, context, request });
    const validation = validateResume({ context, ...request, localTools: target.localTools, signsApprovals: target.signsApprovals });
    if (validation.errors.length > 0) return { refused: validation };
    const unavailable = target.blockers.find((issue) => /which is not defined here/.test(issue.message));
    if (unavailable) throw new LoopscopeError('FAILED_PRECONDITION', unavailable.message);
    if (target.blockers.length > 0) return { refused: { errors: target.blockers, warnings: validation.warnings } };
    for (const issue of validation.warnings) options.warn(`loopscope: warning: ${issue.message}\n`);

    const command = target.command(validation);
    const scenario = scenarios.find((candidate) => candidate.runtime === AI_SDK_DIALECT_ID && candidate.name === command.scenario);
    if (!scenario || scenario.runtime !== AI_SDK_DIALECT_ID) throw new LoopscopeError('FAILED_PRECONDITION', `No AI SDK scenario "${command.scenario}" in tools/scenarios/.`);
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
    return {
      spans: captured.spans,
      started: captured.started,
      ...(result.failure ? { failure: `the AI SDK failed the answering call: ${result.failure.name ? `${result.failure.name}: ` : ''}${result.failure.message}` } : {}),
      headline: `Answered the paused AI SDK call of trace ${context.traceId}`,
    };
  } finally {
    await capture.shutdown().catch(() => undefined);
  }
}
