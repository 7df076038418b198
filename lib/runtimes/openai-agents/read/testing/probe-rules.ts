/**
 * The OpenAI Agents SDK's answer probes (lib/runtimes/openai-agents/__fixtures__/answer-probes.json)
 * as the answers Loopscope checks: each probe's pause is run 1 of a recorded fixture (the same
 * scripted Responses API, the same call ids), its neutral answers the workbench's (approve, deny
 * with its message, result → respond, resume → restart: the SDK has no API for either, and
 * Loopscope refuses them in the SDK's terms). For tests only.
 */
import { expect } from 'vitest';
import { checkAnswers, pausedContext, type AnswerProbeRules } from '../../../testing/answer-probe-rules';
import { loopscopeAnswers, neutralAnswers, type ProbeResult } from '../../../testing/answer-probes';

/** The fixture whose run 1 is each pause the probe makes (probe_answer.py's PAUSES). */
const FIXTURE_OF_PAUSE: Record<string, string> = {
  approval: 'approval-approve',
  'approval-rule': 'approval-rule-approve',
  'two-approvals': 'two-approvals-mixed',
};

/** What Loopscope and the probe (its own `Unsupported`: nothing was sent) both say of an answer the SDK has no API for. */
const NO_API = 'RunState offers approve() and reject() only';

const pendingIds = (result: ProbeResult) => ((result.pendingAfter ?? []) as { toolCallId?: string }[]).map((pending) => pending.toolCallId);

/** The OpenAI Agents SDK's reading of its probes, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
export const probeRules: AnswerProbeRules = {
  runtime: 'openai-agents',
  framework: 'the OpenAI Agents SDK',
  inexpressible: ['approve the approval for the rest of the run (always)', 'deny and approve the same call', 'approve by passing the call id, not the item'],
  async check(probe) {
    const answers = neutralAnswers(probe.request);
    // The workbench's answers have no order: its snippet approves, then rejects (the SDK keeps the last).
    if (answers.some((first, at) => first.answer.kind === 'deny' && answers.slice(at + 1).some((later) => later.callId === first.callId && later.answer.kind === 'approve'))) {
      return { inexpressible: 'a rejection, then an approval of the same call (the snippet approves first, then rejects)' };
    }
    if (answers.some(({ answer }) => answer.always)) return { inexpressible: 'always_approve (the workbench approves one call)' };
    if (answers.some(({ answer }) => answer.passId)) return { inexpressible: 'a call id passed where the SDK takes the item (the snippet always passes the item)' };
    const context = await pausedContext({ runtime: 'openai-agents', fixture: FIXTURE_OF_PAUSE[probe.request.case] });
    return checkAnswers({ context, answers: loopscopeAnswers({ request: probe.request, context, otherTool: 'book_hotel', resumeAs: 'restart' }), case: probe.request.case });
  },
  refusal(result) {
    // The SDK refuses nothing well-typed: a refusal is the probe's, for a result or a value.
    expect(result.error).toMatchObject({ type: 'Unsupported', message: expect.stringContaining(NO_API) });
    return NO_API;
  },
  agrees({ probe, check }) {
    // Where the SDK silently pauses again (an approval left unanswered), Loopscope warns so.
    if (pendingIds(probe.result).length > 0) expect(check.warnings.join('\n')).toContain('the run pauses again on it');
  },
  stable: (result) => ({ pendingAfter: pendingIds(result) }),
  snippetAgrees({ probe, snippet }) {
    expect({ pendingAfter: pendingIds(snippet), toolOutputs: snippet.toolOutputs }).toEqual({ pendingAfter: pendingIds(probe.result), toolOutputs: probe.result.toolOutputs });
  },
};
