import { LoopscopeError } from '../errors';
import { DIALECTS, registeredDialect } from './index';
import type { ResumeCheck, ResumeValidation } from '../loop/resume-model';
import type { RuntimeDialect } from '../loop/runtime-dialect';

export type { RespondAnswer, RestartAnswer, ResumeIssue, ResumeValidation } from '../loop/resume-model';

/** Which runtimes' rules apply: the registered ones by default (a test's `withRuntime(…)` adds its own). */
export interface RulesOptions {
  dialects?: readonly RuntimeDialect[];
}

/**
 * Checks hand-written answers to an interrupted call by the rules of the runtime that recorded
 * it (its dialect's resume rules), before anything runs, and builds the exact payload.
 * @throws LoopscopeError NOT_FOUND for a runtime that is not registered, FAILED_PRECONDITION for one without resume rules.
 */
export function validateResume(check: ResumeCheck, options: RulesOptions = {}): ResumeValidation {
  return rulesOf(check.context.dialect, options).validate(check);
}

/** The checked payload as the app's own call (`ai.generate({…})`, `generateText({…})`), its recorded values encoded as literals. */
export function resumeSnippet(check: Pick<ResumeCheck, 'context'> & { payload: ResumeValidation['payload'] }, options: RulesOptions = {}): string {
  return rulesOf(check.context.dialect, options).snippet(check.context, check.payload);
}

function rulesOf(dialectId: string, { dialects = DIALECTS }: RulesOptions) {
  const dialect = registeredDialect(dialectId, dialects);
  if (!dialect.resume) throw new LoopscopeError('FAILED_PRECONDITION', `No resume rules for calls recorded by ${dialect.title}.`);
  return dialect.resume;
}
