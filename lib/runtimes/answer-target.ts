import { LoopscopeError } from '../errors';
import type { ResumeContext } from '../loop/resume-model';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import { DIALECTS, dialectTitle, registeredDialect } from './index';
import { driverOf, RUNTIME_DRIVERS } from './drivers';
import type { RuntimeDriver } from './runtime-driver';
import type { ResumeTarget, ResumeTargetOptions } from './resume-target';

export type { ResumeTarget, RunnerFacts } from './resume-target';

/**
 * The runner side of answering a paused call, by the driver of the runtime that recorded it.
 * A runtime whose rules say its answers run `elsewhere` (in the developer's app) gets a target that runs nothing.
 * `dialects` and `drivers`: the runtimes to act with (the registered ones by default; a test's `withRuntime(…)`).
 * @throws LoopscopeError NOT_FOUND for a runtime that is not registered, FAILED_PRECONDITION when Loopscope knows no way to answer that runtime.
 */
export function resumeTargetOf(options: ResumeTargetOptions & { dialects?: readonly RuntimeDialect[]; drivers?: readonly RuntimeDriver[] }): ResumeTarget {
  const { dialects = DIALECTS, drivers = RUNTIME_DRIVERS, ...targetOptions } = options;
  const elsewhere = registeredDialect(targetOptions.context.dialect, dialects).resume?.elsewhere;
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
  const answer = driverOf(targetOptions.context.dialect, drivers)?.answer;
  if (!answer) throw new LoopscopeError('FAILED_PRECONDITION', answeredElsewhere(targetOptions.context, dialects));
  return answer.target(targetOptions);
}

/** Why an answer to this call is not run here. */
export function answeredElsewhere(context: Pick<ResumeContext, 'dialect'>, dialects: readonly RuntimeDialect[] = DIALECTS): string {
  return `Loopscope does not run ${dialectTitle(context.dialect, dialects)} calls: send the answer from your app (the snippet shows it in its own code).`;
}
