/**
 * The answer probes of Pydantic AI (lib/runtimes/pydantic-ai/__fixtures__/answer-probes.json) as
 * the answers Loopscope checks: each probe's pause is run 1 of a recorded fixture (the same
 * scripted model answer, the same tool call ids), its framework-neutral answers the workbench's
 * (approve → approve, deny → deny with its message, result → respond, resume → approve with new
 * arguments). For tests only.
 */
import { resumeVerdictOf, type ResumeVerdict } from '../../../../contract/resume-answers';
import { resumeContextFrom } from '../../../resume-context';
import type { ResumeCheck, ResumeContext, ResumeValidation } from '../../../../loop/resume-model';
import { neutralAnswers, type AnswerProbe } from '../../../testing/answer-probe-batches';
import { loadFrameworkFixture } from '../../../testing/framework-fixtures';
import { pydanticAi } from '..';

/** The fixture whose run 1 is each pause the probe makes (probe_answer.py's PAUSES). */
const FIXTURE_OF_PAUSE: Record<string, string> = {
  'approval-tool': 'v6-approval-tool-approve',
  'approval-raised': 'v6-approval-raised-approve',
  deferred: 'v6-deferred-result',
  question: 'v6-question-answer',
  'external-tool': 'v6-external-tool-result',
  'two-approvals-mixed': 'v6-two-approvals-mixed',
};

/** The context of the paused run a probe answers, rebuilt from its recorded spans. */
export async function pausedContext(pause: string): Promise<ResumeContext> {
  const fixture = FIXTURE_OF_PAUSE[pause];
  if (!fixture) throw new Error(`no fixture records the pause ${pause}`);
  return resumeContextFrom(await loadFrameworkFixture('pydantic-ai', fixture));
}

/** The probe's answers as the workbench's, or why they cannot be written there. */
export function checkOfProbe(probe: AnswerProbe, context: ResumeContext): { check: ResumeCheck } | { inexpressible: string } {
  const check: Required<Pick<ResumeCheck, 'approve' | 'deny' | 'respond' | 'restart'>> & ResumeCheck = { context, approve: [], deny: [], respond: [], restart: [] };
  for (const { callId, answer } of neutralAnswers(probe.request)) {
    const name = context.requests.find((request) => request.ref === callId)?.name ?? 'book_hotel';
    if (answer.kind === 'approve' && 'value' in answer) return { inexpressible: 'an approval of another type than True (the workbench approves with True)' };
    if (answer.kind === 'approve') check.approve.push({ name, ref: callId });
    else if (answer.kind === 'deny') check.deny.push({ name, ref: callId, ...(answer.message !== undefined ? { reason: answer.message } : {}) });
    else if (answer.kind === 'result') check.respond.push({ name, ref: callId, output: answer.value });
    else check.restart.push({ name, ref: callId, replaceInput: answer.value });
  }
  return { check };
}

/** Loopscope's check of an answer by Pydantic AI's rules, its verdict, and the answer as the app's Python. */
export function checked(check: ResumeCheck): { validation: ResumeValidation; verdict: ResumeVerdict; snippet: string } {
  const rules = pydanticAi.resume!;
  const validation = rules.validate(check);
  return { validation, verdict: resumeVerdictOf(validation), snippet: rules.snippet(check.context, validation.payload) };
}

/** A Python set in a message, its members sorted (Python's order changes from run to run). */
export function sortedSets(text: string): string {
  return text.replace(/\{('[^']*'(, '[^']*')*)\}/g, (_whole, members: string) => `{${members.split(', ').sort().join(', ')}}`);
}
