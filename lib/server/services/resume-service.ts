import type { ResumeFromTrace } from '../../contract/resume-answers';
import { LoopscopeError } from '../../errors';
import { resumeContextFrom } from '../../runtimes/resume-context';
import { validateResume, type ResumeIssue } from '../../runtimes/validate-resume';
import type { AppContext } from '../app-context-ports';
import type { RunSession } from './run-registry';
import { loadTraceSource } from '../traces/trace-source';
import { resumeTargetOf } from '../../runtimes/answer-target';
import { runnerFacts } from '../runners/runner-facts';
import { dialectTitle } from '../../runtimes/index';
import { appResumeTarget, generateResultOf } from '../attach/app-resume';
import { runInRuntime } from '../attach/attach-service';
import { GENERATE_ACTION_KEY } from '../../runtimes/genkit-reflection/generate-input';
import { aiSdkAppResumeTarget, sendAnswerToApp } from '../attach/ai-sdk-app-resume';

// The request is part of the wire contract; the routes import it from here.
export { ResumeFromTraceSchema, type ResumeFromTrace } from '../../contract/resume-answers';

const describeIssues = (issues: ResumeIssue[]) => issues.map((issue) => issue.message).join(' ');

/**
 * Checks answers to a paused call of any loaded trace by the rules of the runtime that recorded
 * it (genkit: respond / restart and its 1.42 pitfalls as warnings; the AI SDK: approve / deny /
 * respond) with the tools registered here, and builds the exact payload — nothing runs. The
 * workbench checks every edit here: the schemas come from the trace, and compiling them (ajv
 * generates code) stays on the server, out of the page.
 */
export async function checkResumeFromTrace(context: AppContext, request: ResumeFromTrace) {
  const spans = await loadTraceSource(context, request.source);
  const resumeContext = resumeContextFrom(spans, { generateSpanId: request.generateSpanId });
  // A call whose AI SDK app waits for the answer gets it in the app (attach/ai-sdk-app-resume.ts).
  const appWaits = aiSdkAppResumeTarget({ apps: context.aiSdkApps, context: resumeContext });
  // An attached app's trace is answered in the app, with its own model and tools (attach/app-resume.ts).
  const appTarget = !appWaits && context.attachment ? await appResumeTarget({ attachment: context.attachment, spans, context: resumeContext, request }) : undefined;
  const target = appWaits ?? appTarget ?? resumeTargetOf({ facts: await runnerFacts({ context, runtime: resumeContext.dialect }), context: resumeContext, request });
  const validation = validateResume({
    context: resumeContext,
    respond: request.respond,
    restart: request.restart,
    approve: request.approve,
    deny: request.deny,
    values: request.values,
    localTools: target.localTools,
    signsApprovals: target.signsApprovals,
  });
  return { resumeContext, target, validation, blockers: target.blockers };
}

/**
 * Answers a paused call from any loaded trace — live, captured, saved — with the local tools:
 * the answers are checked first (nothing runs when a rule is broken), the recorded history is
 * sent as it was, and the answering call becomes a run of its own whose trace links to the
 * pauses it answered. The loaded trace is never modified.
 */
export async function resumeFromTrace(context: AppContext, request: ResumeFromTrace): Promise<{ run: RunSession; warnings: ResumeIssue[] }> {
  const { resumeContext, target, validation, blockers } = await checkResumeFromTrace(context, request);
  const runtime = dialectTitle(resumeContext.dialect);
  if (validation.errors.length > 0) throw new LoopscopeError('INVALID_ARGUMENT', `${runtime} would refuse this answer: ${describeIssues(validation.errors)}`);
  if (blockers.length > 0) throw new LoopscopeError('FAILED_PRECONDITION', describeIssues(blockers));
  if (validation.warnings.length > 0 && !request.confirmWarnings) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Confirm these warnings first: ${describeIssues(validation.warnings)}`);
  }
  // Loopscope checks the answers of runtimes it does not run (Google ADK, LangGraph): their answer is the app's own code.
  if (target.runsIn === 'nowhere') throw new LoopscopeError('FAILED_PRECONDITION', target.why ?? `Loopscope does not run ${runtime} apps.`);
  // The app that made the call waits for its answer: it goes there, and the app's next call goes on as its run.
  if (target.runsIn === 'waiting-app') {
    const run = await sendAnswerToApp({ apps: context.aiSdkApps, target, request, run: (runId) => context.runs.get(runId) });
    return { run, warnings: validation.warnings };
  }
  const model = resumeContext.model as string;
  // The app target makes its own run (named after the app): one answer is one run, or the
  // answered run's page would list a second answer that never ends.
  if (target.runsIn === 'app') {
    const input = target.generateInput(validation);
    const run = context.runs.create({ label: `resume of ${resumeContext.model} in ${target.runtimeName}`, resumeOf: request.source });
    if ('traceIds' in request.source) context.runs.noteAnsweredBy(request.source.traceIds, run.runId);
    void runInRuntime({ attachment: context.attachment, request: { runtimeId: target.runtimeId ?? '', action: GENERATE_ACTION_KEY, input: input as never } }).then(
      (result) => context.runs.complete(run.runId, generateResultOf({ result, input })),
      (error: unknown) => context.runs.complete(run.runId, { traceIds: [], failure: { message: (error as Error).message } }),
    );
    return { run, warnings: validation.warnings };
  }
  const run = context.runs.create({ label: `resume of ${model}`, resumeOf: request.source });
  if ('traceIds' in request.source) context.runs.noteAnsweredBy(request.source.traceIds, run.runId);
  const command = target.command(validation);
  const answered = target.runsIn === 'runtime-host' ? context.goRunner.generate({ scenario: command.scenario, messages: command.messages, resume: command.resume, answers: command.answers }) : context.supervisor.generate({ runId: run.runId, ...command });
  void answered.then((result) => context.runs.complete(run.runId, result));
  return { run, warnings: validation.warnings };
}
