/**
 * Google ADK's answer probes (lib/runtimes/google-adk/__fixtures__/answer-probes.json) as the
 * answers Loopscope checks: each probe's pause is the recorded fixture of the same case, its
 * neutral answers the workbench's (approve, deny, result → respond, resume → the value of the
 * confirmation or of the long-running call). For tests only.
 */
import { expect } from 'vitest';
import { isObject } from '../../../../spans/json-value';
import { checkAnswers, firstSentence, pausedContext, type AnswerProbeRules, type ProbeCheck } from '../../../testing/answer-probe-rules';
import { loopscopeAnswers } from '../../../testing/answer-probes';

/** Null fields dropped (the probe sends `message: None` where Loopscope sends none). */
const withoutNulls = (value: unknown): unknown => (isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null).map(([key, item]) => [key, withoutNulls(item)])) : value);

/** FunctionResponses by tool and response: a confirmation's id is ADK's own, made when the run paused, so it is not compared. */
const responses = (sent: unknown) => ((sent ?? []) as { name: string; response: unknown }[]).map((response) => ({ name: response.name, response: withoutNulls(response.response) }));

/** Google ADK's reading of its probes, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
export const probeRules: AnswerProbeRules<ProbeCheck & { functionResponses: unknown }> = {
  runtime: 'google-adk',
  framework: 'Google ADK',
  inexpressible: [],
  async check(probe) {
    const context = await pausedContext({ runtime: 'google-adk', fixture: probe.request.case });
    const checked = checkAnswers({ context, answers: loopscopeAnswers({ request: probe.request, context }), case: probe.request.case });
    return { ...checked, functionResponses: (checked.validation.payload.answer as { functionResponses?: unknown }).functionResponses };
  },
  // ADK's messages go on with advice ("Ensure each function response ID matches…") Loopscope does not repeat.
  refusal: (result) => `${result.error?.type}: ${firstSentence(result.error?.message ?? '')}`,
  agrees({ probe, check }) {
    // The FunctionResponses Loopscope builds are what ADK was sent.
    if (probe.result.accepted) expect(responses(check.functionResponses)).toEqual(responses(probe.result.sent));
  },
  snippetAgrees({ snippet }) {
    expect(snippet.finalText).toBeTruthy();
  },
};
