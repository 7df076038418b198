/**
 * A runtime's recorded answer probes sent again through the real framework (its venv or Node app,
 * made on first use by scripts/ensure-venv.js or ensure-node-app.js): every probe, and the code
 * Loopscope gives for each answer it checks, in one probe process. The framework must still do
 * what answer-probes.json recorded — the verdict, the outcome, its exact error, the tools that ran
 * — so the rules tested against the recording (describe-answer-probe-rules.ts) are tested against
 * the framework itself; the code Loopscope gives, run as the app would paste it, must be taken or
 * refused as the probe's answer was, run the same tools and end the same way.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProbeRules, ProbeCheck } from './answer-probe-rules';
import { answerProbeRunner, recordedAnswerProbes, runAnswerProbes, type ProbeResult } from './answer-probes';

const INSTALL_AND_RUN_TIMEOUT_MS = 900_000;

/** Registers the tests (call with `await`, at a test file's top level: the checks are made first, to name the tests). */
export async function describeLiveAnswerProbes<Check extends ProbeCheck>(rules: AnswerProbeRules<Check>): Promise<void> {
  const probes = recordedAnswerProbes(rules.runtime);
  const checks = await Promise.all(probes.map((probe) => rules.check(probe)));
  const withSnippet = probes.flatMap((probe, index) => {
    const check = checks[index];
    if ('inexpressible' in check || !check.snippet) return [];
    return check.verdict === 'accepted' || rules.runsRefusedSnippets ? [{ probe, check, request: check.snippet }] : [];
  });
  const normalize = rules.normalize ?? ((message: string) => message);
  /** What a run did, as compared: the verdict, the error, the tools that ran by call and status, how it ended. */
  const done = (result: ProbeResult, options: { outcome: boolean }) => ({
    accepted: result.accepted,
    error: result.error && `${result.error.type}: ${normalize(result.error.message)}`,
    toolsRun: result.toolsRun.map((tool) => `${tool.tool} (${tool.toolCallId}): ${tool.status}`),
    ...(options.outcome ? { outcome: result.outcome } : {}),
  });

  describe(`${rules.framework} answer probes, live`, () => {
    let live: ProbeResult[] = [];
    let snippets: ProbeResult[] = [];
    beforeAll(async () => {
      const results = await runAnswerProbes({ probe: await answerProbeRunner(rules.runtime), requests: [...probes.map((probe) => probe.request), ...withSnippet.map(({ request }) => request)] });
      live = results.slice(0, probes.length);
      snippets = results.slice(probes.length);
    }, INSTALL_AND_RUN_TIMEOUT_MS);

    probes.forEach((probe, index) => {
      it(`${probe.name}: ${rules.framework} does as recorded`, () => {
        const stable = (result: ProbeResult) => ({ ...done(result, { outcome: true }), ...(rules.stable ? { also: rules.stable(result) } : {}) });
        expect(stable(live[index])).toEqual(stable(probe.result));
      });
    });

    withSnippet.forEach(({ probe, check }, index) => {
      it(`${probe.name}: the code Loopscope gives does in ${rules.framework} what the answer did`, () => {
        const snippet = snippets[index];
        // A refused answer's code fails where the answer failed (in the code or in the run): its outcome says which.
        expect(done(snippet, { outcome: probe.result.accepted })).toEqual(done(probe.result, { outcome: probe.result.accepted }));
        rules.snippetAgrees?.({ probe, check, snippet });
      });
    });
  });
}
