import { LoopscopeError } from '../errors';
import { DIALECTS } from '../dialects/registry';
import type { ResumeCheck, ResumeValidation } from '../dialects/resume-model';

export type { RespondAnswer, RestartAnswer, ResumeIssue, ResumeValidation } from '../dialects/resume-model';

/**
 * Checks hand-written answers to an interrupted call by the rules of the runtime that recorded
 * it (its dialect's resume rules), before anything runs, and builds the exact payload.
 */
export function validateResume(check: ResumeCheck): ResumeValidation {
  const dialect = DIALECTS.find((candidate) => candidate.id === check.context.dialect);
  if (!dialect?.resume) throw new LoopscopeError('FAILED_PRECONDITION', `No resume rules for calls recorded by ${check.context.dialect}.`);
  return dialect.resume.validate(check);
}
