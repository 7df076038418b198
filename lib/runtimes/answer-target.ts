import { LoopscopeError } from '../errors';
import type { ResumeContext } from '../loop/resume-model';
import { DIALECTS, dialectTitle } from './index';
import { driverOf } from './drivers';
import type { ResumeTarget, ResumeTargetOptions } from './resume-target';

export type { ResumeTarget, RunnerFacts } from './resume-target';

/**
 * The runner side of answering a paused call, by the driver of the runtime that recorded it.
 * A runtime whose rules say its answers run `elsewhere` (in the developer's app) gets a target that runs nothing.
 * @throws LoopscopeError FAILED_PRECONDITION when Loopscope knows no way to answer that runtime.
 */
export function resumeTargetOf(options: ResumeTargetOptions): ResumeTarget {
  const elsewhere = DIALECTS.find((dialect) => dialect.id === options.context.dialect)?.resume?.elsewhere;
  if (elsewhere) {
    return {
      runsIn: 'nowhere',
      why: elsewhere.why,
      localTools: new Map(),
      signsApprovals: false,
      blockers: [],
      command: () => {
        throw new LoopscopeError('FAILED_PRECONDITION', elsewhere.why);
      },
    };
  }
  const answer = driverOf(options.context.dialect)?.answer;
  if (!answer) throw new LoopscopeError('FAILED_PRECONDITION', answeredElsewhere(options.context));
  return answer.target(options);
}

/** Why an answer to this call is not run here. */
export function answeredElsewhere(context: Pick<ResumeContext, 'dialect'>): string {
  return `Loopscope does not run ${dialectTitle(context.dialect)} calls: send the answer from your app (the snippet shows it in its own code).`;
}
