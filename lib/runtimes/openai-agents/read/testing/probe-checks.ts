/**
 * The answer probes of the OpenAI Agents SDK (lib/runtimes/openai-agents/__fixtures__/answer-probes.json)
 * as the answers Loopscope checks: each probe's pause is run 1 of a recorded fixture (the same
 * scripted Responses API, the same call ids), its framework-neutral answers the workbench's
 * (approve → approve, deny → deny with its message, result → respond, resume → restart). For tests only.
 */
import { resumeVerdictOf, type ResumeVerdict } from '../../../../contract/resume-answers';
import { resumeContextFrom } from '../../../resume-context';
import type { ResumeCheck, ResumeContext, ResumeValidation } from '../../../../loop/resume-model';
import { neutralAnswers, type AnswerProbe } from '../../../testing/answer-probe-batches';
import { loadFrameworkFixture } from '../../../testing/framework-fixtures';
import { openAiAgents } from '..';

/** The fixture whose run 1 is each pause the probe makes (probe_answer.py's PAUSES). */
const FIXTURE_OF_PAUSE: Record<string, string> = {
  approval: 'approval-approve',
  'approval-rule': 'approval-rule-approve',
  'two-approvals': 'two-approvals-mixed',
};

/** The context of the paused run a probe answers, rebuilt from its recorded spans. */
export async function pausedContext(pause: string): Promise<ResumeContext> {
  const fixture = FIXTURE_OF_PAUSE[pause];
  if (!fixture) throw new Error(`no fixture records the pause ${pause}`);
  return resumeContextFrom(await loadFrameworkFixture('openai-agents', fixture));
}

/** The probe's answers as the workbench's, or why they cannot be written there. */
export function checkOfProbe(probe: AnswerProbe, context: ResumeContext): { check: ResumeCheck } | { inexpressible: string } {
  const check: Required<Pick<ResumeCheck, 'approve' | 'deny' | 'respond' | 'restart'>> & ResumeCheck = { context, approve: [], deny: [], respond: [], restart: [] };
  const answers = neutralAnswers(probe.request);
  // The workbench's answers have no order: its snippet approves, then rejects (the SDK keeps the last).
  if (answers.some((first, at) => first.answer.kind === 'deny' && answers.slice(at + 1).some((later) => later.callId === first.callId && later.answer.kind === 'approve'))) {
    return { inexpressible: 'a rejection, then an approval of the same call (the snippet approves first, then rejects)' };
  }
  for (const { callId, answer } of answers) {
    const name = context.requests.find((request) => request.ref === callId)?.name ?? 'book_hotel';
    if (answer.always) return { inexpressible: 'always_approve (the workbench approves one call)' };
    if (answer.passId) return { inexpressible: 'a call id passed where the SDK takes the item (the snippet always passes the item)' };
    if (answer.kind === 'approve') check.approve.push({ name, ref: callId });
    else if (answer.kind === 'deny') check.deny.push({ name, ref: callId, ...(answer.message !== undefined ? { reason: answer.message } : {}) });
    else if (answer.kind === 'result') check.respond.push({ name, ref: callId, output: answer.value });
    else check.restart.push({ name, ref: callId, replaceInput: answer.value });
  }
  return { check };
}

/** Loopscope's check of an answer by the SDK's rules, its verdict, and the answer as the app's Python. */
export function checked(check: ResumeCheck): { validation: ResumeValidation; verdict: ResumeVerdict; snippet: string } {
  const rules = openAiAgents.resume!;
  const validation = rules.validate(check);
  return { validation, verdict: resumeVerdictOf(validation), snippet: rules.snippet(check.context, validation.payload) };
}

/** Whether Loopscope refused an answer the SDK has no API for (the probe's own `Unsupported`: nothing was sent). */
export const NO_API = 'RunState offers approve() and reject() only';
