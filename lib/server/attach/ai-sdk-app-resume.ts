/**
 * Answering a paused call of an AI SDK app IN the app (issue 39): when the app that made the call
 * waits for the answer (`answerInLoopscope(result)`, lib/runtimes/ai-sdk/app-package), the workbench's
 * approve / deny / respond — checked by the AI SDK's rules as for every AI SDK trace, against the
 * tools the app's call offered — is sent to the app rather than run by Loopscope's runner. The
 * app builds its next call's `tool` message from it (with its own approval ids) and calls
 * `generateText` again; that call goes on as the same run, its root span linked to the paused
 * call (ai-sdk-apps.ts, answer-links of lib/runtimes/ai-sdk/app-package).
 */
import type { AiSdkAppAnswer } from '../../contract/attach-ai-sdk';
import type { ResumeFromTrace, ResumeIssue } from '../../contract/resume-answers';
import type { RunSession } from '../../contract/run-session';
import type { LocalToolFacts, ResumeContext } from '../../loop/resume-model';
import { LoopscopeError } from '../../errors';
import type { AiSdkApps } from './ai-sdk-apps';

export interface AiSdkAppResumeTarget {
  /** The app that made the call waits for the answer and runs it (ResumeTarget.runsIn's other places: the runners, nowhere). */
  runsIn: 'waiting-app';
  runId: string;
  appName: string;
  /** The app's tools as its call offered them: a tool without `execute` is handed back; a respond is checked against its output schema. */
  localTools: ReadonlyMap<string, LocalToolFacts>;
  /** The app holds its approval requests (and any signature) in its own messages: nothing is signed here. */
  signsApprovals: false;
  blockers: ResumeIssue[];
}

/** The target of a paused call whose app waits for the answer, or undefined (the runner answers it, as before). */
export function aiSdkAppResumeTarget(options: { apps: AiSdkApps | undefined; context: ResumeContext }): AiSdkAppResumeTarget | undefined {
  const waiting = options.apps?.waitingFor(options.context.traceId);
  if (!waiting) return undefined;
  return {
    runsIn: 'waiting-app',
    runId: waiting.runId,
    appName: waiting.appName,
    localTools: new Map(waiting.tools.map((tool) => [tool.name, { handedBack: tool.handedBack, ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}) }])),
    signsApprovals: false,
    blockers: [],
  };
}

/** The checked answers as the app takes them: each naming its tool call id (the rules refused any answer without one). */
function appAnswerOf(request: ResumeFromTrace): AiSdkAppAnswer {
  const call = (answer: { name: string; ref?: string }) => ({ toolName: answer.name, toolCallId: answer.ref ?? '' });
  return {
    approve: (request.approve ?? []).map((answer) => ({ ...call(answer), ...(answer.reason ? { reason: answer.reason } : {}) })),
    deny: (request.deny ?? []).map((answer) => ({ ...call(answer), ...(answer.reason ? { reason: answer.reason } : {}) })),
    respond: request.respond.map((answer) => ({ ...call(answer), output: (answer.output ?? null) as AiSdkAppAnswer['respond'][number]['output'] })),
  };
}

/**
 * Sends the checked answer to the app and resolves with its run once the app took it (its next
 * call then goes on as that run).
 * @throws LoopscopeError INVALID_ARGUMENT (the app could not build its messages from it), FAILED_PRECONDITION (the app stopped waiting).
 */
export async function sendAnswerToApp(options: { apps: AiSdkApps; target: AiSdkAppResumeTarget; request: ResumeFromTrace; run: (runId: string) => RunSession | undefined }): Promise<RunSession> {
  const { apps, target, request } = options;
  const problems = await apps.deliver({ runId: target.runId, answer: appAnswerOf(request) });
  if (problems.length > 0) throw new LoopscopeError('INVALID_ARGUMENT', `The app ${target.appName} could not take this answer: ${problems.join('; ')}`);
  const run = options.run(target.runId);
  if (!run) throw new LoopscopeError('NOT_FOUND', `Run ${target.runId} is no longer kept (runs are kept in memory until the server restarts).`);
  return run;
}
