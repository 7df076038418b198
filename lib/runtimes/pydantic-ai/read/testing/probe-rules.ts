/**
 * Pydantic AI's answer probes (lib/runtimes/pydantic-ai/__fixtures__/answer-probes.json) as the
 * answers Loopscope checks: each probe's pause is run 1 of a recorded fixture (the same scripted
 * model answer, the same tool call ids), its neutral answers the workbench's (approve, deny with
 * its message, result → respond, resume → a restart with new arguments: Pydantic AI's
 * `ToolApproved(override_args=…)`). The code Loopscope gives runs for refused answers too: Pydantic
 * AI refuses it with the same error. For tests only.
 */
import { expect } from 'vitest';
import { checkAnswers, pausedContext, type AnswerProbeRules, type ProbeCheck } from '../../../testing/answer-probe-rules';
import { loopscopeAnswers, neutralAnswers } from '../../../testing/answer-probes';

/** The fixture whose run 1 is each pause the probe makes (probe_answer.py's PAUSES). */
const FIXTURE_OF_PAUSE: Record<string, string> = {
  'approval-tool': 'v6-approval-tool-approve',
  'approval-raised': 'v6-approval-raised-approve',
  deferred: 'v6-deferred-result',
  question: 'v6-question-answer',
  'external-tool': 'v6-external-tool-result',
  'two-approvals-mixed': 'v6-two-approvals-mixed',
};

/** A Python set in a message, its members sorted (Loopscope names a set's members in its own order). */
export function sortedSets(text: string): string {
  return text.replace(/\{('[^']*'(, '[^']*')*)\}/g, (_whole, members: string) => `{${members.split(', ').sort().join(', ')}}`);
}

/** Pydantic AI's reading of its probes, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
export const probeRules: AnswerProbeRules<ProbeCheck & { conversationId?: string }> = {
  runtime: 'pydantic-ai',
  framework: 'Pydantic AI',
  inexpressible: ['approve with a value of the wrong type'],
  async check(probe) {
    if (neutralAnswers(probe.request).some(({ answer }) => answer.kind === 'approve' && 'value' in answer)) return { inexpressible: 'an approval of another type than True (the workbench approves with True)' };
    const context = await pausedContext({ runtime: 'pydantic-ai', fixture: FIXTURE_OF_PAUSE[probe.request.case] });
    const answers = loopscopeAnswers({ request: probe.request, context, otherTool: 'book_hotel', resumeAs: 'restart' });
    return { ...checkAnswers({ context, answers, case: probe.request.case }), conversationId: context.conversationId };
  },
  normalize: sortedSets,
  runsRefusedSnippets: true,
  snippetAgrees({ check, snippet }) {
    // The answering run continues the paused run's conversation: Loopscope ties its trace to the pause by it.
    if (snippet.accepted) expect(snippet.conversationId).toBe(check.conversationId);
  },
};
