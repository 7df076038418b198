import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { loopscopeAnswers, probePython, probeRequests, runProbe, runSnippet, type ProbeRequest } from '../../testing/answer-probes';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';

/**
 * Every ADK answer rule, checked against ADK itself: each probe request
 * (scripts/fixtures/frameworks/google-adk/probe-requests.json) is sent through the real ADK by its
 * answer probe (the pause made offline, one Runner.run_async with the answer) and, the same answer,
 * through Loopscope's rules on the recorded fixture of the same case. Loopscope must say what ADK
 * did — accepted, or refused with ADK's own error — and build the FunctionResponses ADK was sent.
 * The venv is installed by scripts/ensure-venv.js on first run.
 */
let python: string;
beforeAll(async () => {
  python = await probePython('google-adk');
}, 900_000);

/** Null fields dropped (the probe sends `message: None` where Loopscope sends none). */
const withoutNulls = (value: unknown): unknown => (isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null).map(([key, item]) => [key, withoutNulls(item)])) : value);

async function loopscopeCheck(request: ProbeRequest) {
  const context = resumeContextFrom(await loadFrameworkFixture('google-adk', request.case));
  const answers = loopscopeAnswers({ answer: request.answer, nameOf: (callId) => context.requests.find((candidate) => candidate.ref === callId)?.name });
  const validation = validateResume({ context, ...answers });
  return { context, validation, verdict: resumeVerdictOf(validation) };
}

describe('Google ADK’s answer rules, each sent through ADK', () => {
  for (const request of probeRequests('google-adk')) {
    it(`${request.label}: Loopscope says what ADK did`, async () => {
      const [adk, loopscope] = await Promise.all([runProbe({ framework: 'google-adk', python, request }), loopscopeCheck(request)]);
      expect(loopscope.verdict, JSON.stringify(loopscope.validation.errors)).toBe(adk.accepted ? 'accepted' : 'refused');
      if (!adk.accepted) {
        // Refused with ADK's own error.
        expect(loopscope.validation.errors.map((issue) => issue.message).join(' ')).toContain(`${adk.error!.type}:`);
        return;
      }
      // The FunctionResponses Loopscope builds are what ADK was sent (a confirmation's id is ADK's own: found by the code, not recorded).
      const sent = (adk.sent as { id: string; name: string; response: unknown }[]).map((response) => ({ name: response.name, response: withoutNulls(response.response) }));
      const built = ((loopscope.validation.payload.answer as { functionResponses: { name: string; response: unknown }[] }).functionResponses ?? []).map((response) => ({ name: response.name, response: withoutNulls(response.response) }));
      expect(built).toEqual(sent);
    }, 240_000);
  }

  // The code the workbench gives, run as the app would run it: ADK does with it what it did with the probe's answer.
  for (const label of ['confirmation: approve', 'confirmation: deny with a message', 'confirmation: caller-supplied result (FunctionResponse of book_table itself)', 'two confirmations: both approved', 'request_confirmation: approve with a payload', "long-running: caller's result"]) {
    it(`${label}: the answer's Python runs in ADK and does what the answer says`, async () => {
      const request = probeRequests('google-adk').find((candidate) => candidate.label === label)!;
      const { context, validation } = await loopscopeCheck(request);
      const code = resumeSnippet({ context, payload: validation.payload });
      const [adk, snippet] = await Promise.all([runProbe({ framework: 'google-adk', python, request }), runSnippet({ framework: 'google-adk', python, fixtureCase: request.case, code })]);
      expect(snippet.error).toBeNull();
      expect(snippet.ran).toBe(true);
      expect(snippet.toolsRun.map((tool) => [tool.toolCallId, tool.tool])).toEqual(adk.toolsRun.map((tool) => [tool.toolCallId, tool.tool]));
      expect(snippet.finalText).toBeTruthy();
    }, 240_000);
  }

  it('warns where ADK silently drops a pause: a confirmation left unanswered, a deny’s reason', async () => {
    const partial = await loopscopeCheck(probeRequests('google-adk').find((request) => request.label === 'two confirmations: one of two left unanswered')!);
    expect(partial.validation.warnings.map((issue) => issue.message).join(' ')).toMatch(/drops the confirmation .*book_table#call_book_table_2/);
    const deny = await loopscopeCheck(probeRequests('google-adk').find((request) => request.label === 'confirmation: deny with a message')!);
    expect(deny.validation.warnings.map((issue) => issue.message).join(' ')).toMatch(/no field for a message/);
  });
});
