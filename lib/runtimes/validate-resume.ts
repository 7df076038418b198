import { LoopscopeError } from '../errors';
import { DIALECTS } from './index';
import type { ResumeCheck, ResumeValidation } from '../loop/resume-model';

export type { RespondAnswer, RestartAnswer, ResumeIssue, ResumeValidation } from '../loop/resume-model';

/**
 * Checks hand-written answers to an interrupted call by the rules of the runtime that recorded
 * it (its dialect's resume rules), before anything runs, and builds the exact payload.
 */
export function validateResume(check: ResumeCheck): ResumeValidation {
  return rulesOf(check.context.dialect).validate(check);
}

/** The checked payload as the app's own call (`ai.generate({…})`, `generateText({…})`), its recorded values encoded as literals. */
export function resumeSnippet(check: Pick<ResumeCheck, 'context'> & { payload: ResumeValidation['payload'] }): string {
  return rulesOf(check.context.dialect).snippet(check.context, check.payload);
}

function rulesOf(dialectId: string) {
  const dialect = DIALECTS.find((candidate) => candidate.id === dialectId);
  if (!dialect?.resume) throw new LoopscopeError('FAILED_PRECONDITION', `No resume rules for calls recorded by ${dialectId}.`);
  return dialect.resume;
}
