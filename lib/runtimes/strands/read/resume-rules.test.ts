import { describe, expect, it } from 'vitest';
import { recordedAnswerProbes } from '../../testing/answer-probes';
import { pausedContext } from '../../testing/answer-probe-rules';
import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { validateResume } from '../../validate-resume';
import { probeRules } from './testing/probe-rules';

/**
 * Strands Agents' resume rules against what Strands did with the same answers
 * (answer-probes.json, recorded by calling the paused agent again with interruptResponse blocks):
 * each is accepted or refused as Strands did, a refusal saying Strands' own error word for word,
 * the blocks Loopscope builds are the ones Strands was sent, and it warns where Strands pauses
 * again or HumanInTheLoop denies. answer-probes.capture.test.ts sends them again through the live
 * Strands, and the code Loopscope gives for each.
 */
await describeAnswerProbeRules(probeRules);

describe('Strands Agents: the interrupt ids Loopscope writes', () => {
  it('names each interrupt by its id, never by the tool use id Strands refuses (the probe: KeyError)', async () => {
    const recorded = recordedAnswerProbes('strands').find((probe) => probe.name === 'answer with the tool use id as the interrupt id')!;
    expect(recorded.result).toMatchObject({ accepted: false, error: { type: 'KeyError', message: "'interrupt_id=<tooluse_book_paris> | no interrupt found'" } });
    const context = await pausedContext({ runtime: 'strands', fixture: 'events-hook-approve' });
    const { payload } = validateResume({ context, values: [{ name: 'book_hotel', ref: 'tooluse_book_paris', value: { approved: true } }] });
    expect(payload.answer).toEqual([{ interruptResponse: { interruptId: 'v1:before_tool_call:tooluse_book_paris:7d6c7ca3-7c5a-5c0f-85bd-0886f61d34f8', response: { approved: true } } }]);
  });
});
