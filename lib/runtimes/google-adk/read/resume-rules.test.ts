import { describe, expect, it } from 'vitest';
import { recordedAnswerProbes } from '../../testing/answer-probes';
import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { probeRules } from './testing/probe-rules';

/**
 * Google ADK's resume rules against what ADK did with the same answers (answer-probes.json,
 * recorded through one `Runner.run_async` with the answer's FunctionResponses): each is accepted
 * or refused as ADK did, a refusal naming ADK's own error, and the FunctionResponses Loopscope
 * builds are the ones ADK was sent. answer-probes.capture.test.ts sends them again through the
 * live ADK, and the code Loopscope gives for each.
 */
await describeAnswerProbeRules(probeRules);

describe('Google ADK: what ADK silently drops', () => {
  const probes = recordedAnswerProbes('google-adk');
  const checkOf = async (name: string) => probeRules.check(probes.find((probe) => probe.name === name)!);

  it('warns where ADK silently drops a pause: a confirmation left unanswered, a deny’s reason', async () => {
    const partial = await checkOf('two confirmations: one of two left unanswered');
    expect('warnings' in partial && partial.warnings.join(' ')).toMatch(/drops the confirmation .*book_table#call_book_table_2/);
    const deny = await checkOf('confirmation: deny with a message');
    expect('warnings' in deny && deny.warnings.join(' ')).toMatch(/no field for a message/);
  });
});
