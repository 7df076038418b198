/**
 * Strands Agents' answer probes (lib/runtimes/strands/__fixtures__/answer-probes.json) as the
 * answers Loopscope checks: each probe's pause is run 1 of a recorded fixture, and its answer is
 * what Strands was sent — the interruptResponse blocks — read back as the workbench's values (each
 * for the paused call whose interrupt id it carries). For tests only.
 */
import { expect } from 'vitest';
import type { ValueAnswer } from '../../../../contract/resume-answers';
import type { ResumeContext } from '../../../../loop/resume-model';
import { isObject } from '../../../../spans/json-value';
import { checkAnswers, pausedContext, type AnswerProbeRules, type ProbeCheck } from '../../../testing/answer-probe-rules';

/** The recorded fixture whose first run is each probe's pause. */
const FIXTURE_OF_PAUSE: Record<string, string> = { hook: 'events-hook-approve', 'hook-two': 'events-hook-two-mixed', intervention: 'events-intervention-approve', 'tool-interrupt': 'events-tool-interrupt-confirm' };

/** Loopscope's answers for the blocks Strands was sent: each names the paused call whose interrupt id it carries (else the call of that id, else an unknown one). */
function valuesOf(context: ResumeContext, sent: unknown): ValueAnswer[] {
  return (Array.isArray(sent) ? sent : []).map((block) => {
    const response = isObject(block) && isObject(block.interruptResponse) ? block.interruptResponse : {};
    const id = String(response.interruptId);
    const call = context.requests.find((request) => request.pauseId === id) ?? context.requests.find((request) => request.ref === id);
    return { name: call?.name ?? 'unknown_tool', ref: call?.ref ?? id, value: 'response' in response ? response.response : undefined };
  });
}

/** Strands' reading of its probes, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
export const probeRules: AnswerProbeRules<ProbeCheck & { context: ResumeContext; payload: unknown }> = {
  runtime: 'strands',
  framework: 'Strands Agents',
  // Loopscope's answer is always a list of interruptResponse blocks, each naming its interrupt by the interrupt's id (resume-rules.test.ts).
  inexpressible: ['send a plain prompt instead of answers', 'answer with the tool use id as the interrupt id'],
  async check(probe) {
    const { sent } = probe.result;
    if (!Array.isArray(sent)) return { inexpressible: 'a prompt while the agent is paused (Loopscope answers with interruptResponse blocks)' };
    const context = await pausedContext({ runtime: 'strands', fixture: FIXTURE_OF_PAUSE[probe.request.case] });
    const named = (block: unknown) => (isObject(block) && isObject(block.interruptResponse) ? String(block.interruptResponse.interruptId) : '');
    // A paused call's tool use id in place of its interrupt id: Loopscope writes the call's interrupt id instead.
    if (sent.some((block) => context.requests.some((request) => request.pauseId !== undefined && request.ref === named(block) && request.pauseId !== named(block)))) {
      return { inexpressible: 'a tool use id where Strands takes the interrupt id (Loopscope writes the interrupt id)' };
    }
    const checked = checkAnswers({ context, answers: { values: valuesOf(context, sent) }, case: probe.request.case });
    return { ...checked, payload: checked.validation.payload.answer };
  },
  agrees({ probe, check }) {
    const { result } = probe;
    if (!result.accepted) return;
    // The blocks Loopscope builds are the blocks Strands was sent.
    expect(check.payload).toEqual(result.sent);
    const warnings = check.warnings.join(' ');
    // Where Strands pauses again (an interrupt unanswered or answered None), Loopscope warns so; nowhere else.
    expect(/pauses again/.test(warnings)).toBe(result.outcome === 'paused');
    // Where HumanInTheLoop denies on the response, Loopscope warns so.
    const intervention = check.context.requests.some((request) => request.pausedAs?.startsWith('approval required (HumanInTheLoop)'));
    if (intervention) expect(/HumanInTheLoop denies/.test(warnings)).toBe(result.toolsRun.length === 0);
  },
};
