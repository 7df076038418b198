import { describe, expect, it } from 'vitest';
import { recordedAnswerProbes } from '../../testing/answer-probe-batches';
import { checked, checkOfProbe, NO_API, pausedContext } from './testing/probe-checks';

/**
 * The OpenAI Agents SDK's resume rules against what the SDK did with the same answers
 * (answer-probes.json, recorded through `result.to_state()`, `state.approve` / `state.reject` and
 * `Runner.run(agent, state)`): every probe Loopscope can write is accepted or refused as the SDK
 * did. The SDK refuses nothing well-typed — what it ignores or pauses again on is a warning here —
 * and has no API for a result or a value, which Loopscope refuses in the SDK's terms.
 * answer-probes.capture.test.ts sends them again through the live SDK, as the snippet the app would paste.
 */
const probes = recordedAnswerProbes('openai-agents');

describe('OpenAI Agents SDK resume rules agree with the SDK', () => {
  it('every probe but always_approve, a call id passed for the item and a rejection then an approval is written as the workbench’s answers', async () => {
    const inexpressible = [];
    for (const probe of probes) if ('inexpressible' in checkOfProbe(probe, await pausedContext(probe.request.case))) inexpressible.push(probe.name);
    expect(inexpressible).toEqual(['approve the approval for the rest of the run (always)', 'deny and approve the same call', 'approve by passing the call id, not the item']);
  });

  for (const probe of probes) {
    it(`${probe.name}: ${probe.result.accepted ? 'accepted' : `refused (${probe.result.error?.type})`}`, async ({ skip }) => {
      const written = checkOfProbe(probe, await pausedContext(probe.request.case));
      if ('inexpressible' in written) return skip(written.inexpressible);
      const { validation, verdict } = checked(written.check);
      expect(verdict, JSON.stringify(validation.errors)).toBe(probe.result.accepted ? 'accepted' : 'refused');
      if (!probe.result.accepted) {
        expect(probe.result.error).toMatchObject({ type: 'Unsupported', message: expect.stringContaining(NO_API) });
        expect(validation.errors.map((issue) => issue.message).join('\n')).toContain(NO_API);
      }
      // What the SDK silently does (pauses again, ignores an id, keeps the last answer) is said as a warning.
      const again = (probe.result.pendingAfter ?? []).length > 0;
      if (again) expect(validation.warnings.map((issue) => issue.message).join('\n')).toContain('the run pauses again on it');
    });
  }
});
