import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { answerProbeRunner, loopscopeAnswers, probeRequests, recordedAnswerProbes, runAnswerProbes, type AnswerProbe, type ProbeResult } from '../../testing/answer-probes';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';

/**
 * Every ADK answer rule, checked against ADK itself: each probe of
 * scripts/fixtures/frameworks/google-adk/probe-requests.json is sent through the real ADK by its
 * answer probe (the pause made offline, one Runner.run_async with the answer; all in one probe
 * process) and, the same answer, through Loopscope's rules on the recorded fixture of the same
 * case. ADK must still do what answer-probes.json recorded, and Loopscope must say what ADK did —
 * accepted, or refused with ADK's own error — and build the FunctionResponses ADK was sent. The
 * venv is installed by scripts/ensure-venv.js on first run.
 */
const PROBES = probeRequests('google-adk');
const RECORDED = new Map(recordedAnswerProbes('google-adk').map((probe) => [probe.name, probe.result]));
/** The probes whose answer is also given as the code the workbench writes, run in ADK as the app would run it. */
const SNIPPETS = ['confirmation: approve', 'confirmation: deny with a message', 'confirmation: caller-supplied result (FunctionResponse of book_table itself)', 'two confirmations: both approved', 'request_confirmation: approve with a payload', "long-running: caller's result"];
const probeNamed = (name: string): AnswerProbe => PROBES.find((probe) => probe.name === name)!;

/** Null fields dropped (the probe sends `message: None` where Loopscope sends none). */
const withoutNulls = (value: unknown): unknown => (isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null).map(([key, item]) => [key, withoutNulls(item)])) : value);

async function loopscopeCheck(probe: AnswerProbe) {
  const context = resumeContextFrom(await loadFrameworkFixture('google-adk', probe.request.case));
  const answers = loopscopeAnswers({ request: probe.request, nameOf: (callId) => context.requests.find((candidate) => candidate.ref === callId)?.name });
  const validation = validateResume({ context, ...answers });
  return { context, validation, verdict: resumeVerdictOf(validation) };
}

let live = new Map<string, ProbeResult>();
let snippets = new Map<string, ProbeResult>();
beforeAll(async () => {
  const codes = await Promise.all(
    SNIPPETS.map(async (name) => {
      const { context, validation } = await loopscopeCheck(probeNamed(name));
      return { case: probeNamed(name).request.case, snippet: resumeSnippet({ context, payload: validation.payload }) };
    }),
  );
  const results = await runAnswerProbes({ probe: await answerProbeRunner('google-adk'), requests: [...PROBES.map((probe) => probe.request), ...codes] });
  live = new Map(PROBES.map((probe, index) => [probe.name, results[index]]));
  snippets = new Map(SNIPPETS.map((name, index) => [name, results[PROBES.length + index]]));
}, 900_000);

describe('Google ADK’s answer rules, each sent through ADK', () => {
  for (const probe of PROBES) {
    it(`${probe.name}: Loopscope says what ADK did`, async () => {
      const adk = live.get(probe.name)!;
      // ADK does today what the recording says it did.
      const recorded = RECORDED.get(probe.name)!;
      expect({ accepted: adk.accepted, outcome: adk.outcome, error: adk.error?.type ?? null }).toEqual({ accepted: recorded.accepted, outcome: recorded.outcome, error: recorded.error?.type ?? null });

      const loopscope = await loopscopeCheck(probe);
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
    });
  }

  // The code the workbench gives, run as the app would run it: ADK does with it what it did with the probe's answer.
  for (const name of SNIPPETS) {
    it(`${name}: the answer's Python runs in ADK and does what the answer says`, () => {
      const adk = live.get(name)!;
      const snippet = snippets.get(name)!;
      expect(snippet.error).toBeNull();
      expect(snippet.accepted).toBe(true);
      expect(snippet.toolsRun.map((tool) => [tool.toolCallId, tool.tool])).toEqual(adk.toolsRun.map((tool) => [tool.toolCallId, tool.tool]));
      expect(snippet.finalText).toBeTruthy();
    });
  }

  it('warns where ADK silently drops a pause: a confirmation left unanswered, a deny’s reason', async () => {
    const partial = await loopscopeCheck(probeNamed('two confirmations: one of two left unanswered'));
    expect(partial.validation.warnings.map((issue) => issue.message).join(' ')).toMatch(/drops the confirmation .*book_table#call_book_table_2/);
    const deny = await loopscopeCheck(probeNamed('confirmation: deny with a message'));
    expect(deny.validation.warnings.map((issue) => issue.message).join(' ')).toMatch(/no field for a message/);
  });
});
