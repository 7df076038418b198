import { LoopscopeError } from '../errors';
import type { ResumeContext } from '../loop/resume-model';
import { dialectTitle } from './index';
import { driverOf } from './drivers';
import type { ResumeTarget, ResumeTargetOptions } from './resume-target';

export type { ResumeTarget, RunnerFacts } from './resume-target';

/**
 * The runner side of answering a paused call, by the driver of the runtime that recorded it.
 * @throws LoopscopeError FAILED_PRECONDITION when Loopscope does not run that runtime (its answer is the app's to run).
 */
export function resumeTargetOf(options: ResumeTargetOptions): ResumeTarget {
  const answer = driverOf(options.context.dialect)?.answer;
  if (!answer) throw new LoopscopeError('FAILED_PRECONDITION', answeredElsewhere(options.context));
  return answer.target(options);
}

/** Why an answer to this call is not run here. */
export function answeredElsewhere(context: Pick<ResumeContext, 'dialect'>): string {
  return `Loopscope does not run ${dialectTitle(context.dialect)} calls: send the answer from your app (the snippet shows it in its own code).`;
}
