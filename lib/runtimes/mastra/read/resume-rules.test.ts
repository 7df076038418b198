import { describe, expect, it } from 'vitest';
import { pausedContext, firstSentence } from '../../testing/answer-probe-rules';
import { recordedAnswerProbes } from '../../testing/answer-probes';
import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { validateResume } from '../../validate-resume';
import { probeRules } from './testing/probe-rules';

/**
 * Mastra's resume rules against what Mastra did with the same answers (answer-probes.json,
 * recorded through approveToolCall, declineToolCall and resumeStream, each answer its own run):
 * each is accepted or refused as Mastra did, a refusal saying Mastra's own error, the call
 * Loopscope builds is the call Mastra got, and it warns where the call stays suspended or the tool
 * then does not run. answer-probes.capture.test.ts sends them again through the live Mastra, and
 * the code Loopscope gives for each.
 */
await describeAnswerProbeRules(probeRules);

describe('Mastra: two answers to one call', () => {
  it('two answers to the paused call in one check: refused as Mastra refuses the second run', async () => {
    const recorded = recordedAnswerProbes('mastra').find((probe) => probe.name === 'approval: approved twice (a second run answering the same call)')!;
    const context = await pausedContext({ runtime: 'mastra', fixture: 'approval-approve' });
    const { errors } = validateResume({ context, approve: [{ name: 'book_table', ref: 'call_book_table' }], deny: [{ name: 'book_table', ref: 'call_book_table' }] });
    // Mastra's words, the run id its own: the probe's run is the recorded pause's here.
    const probeRunId = /runId "([^"]+)"/.exec(recorded.result.error!.message)![1];
    expect(errors.map((issue) => issue.message).join(' ')).toContain(`Error: ${firstSentence(recorded.result.error!.message.replace(probeRunId, context.conversationId!))}.`);
  });
});
