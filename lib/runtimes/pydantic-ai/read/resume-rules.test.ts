import { describe, expect, it } from 'vitest';
import { recordedAnswerProbes } from '../../testing/answer-probe-batches';
import { checked, checkOfProbe, pausedContext, sortedSets } from './testing/probe-checks';

/**
 * Pydantic AI's resume rules against what Pydantic AI did with the same answers
 * (answer-probes.json, recorded through `agent.run_sync(message_history=…,
 * deferred_tool_results=…)`): every probe Loopscope can write is accepted or refused as Pydantic
 * AI did, a refusal naming Pydantic AI's own error. answer-probes.capture.test.ts sends them again
 * through the live framework, as the snippet the app would paste.
 */
const probes = recordedAnswerProbes('pydantic-ai');

describe('Pydantic AI resume rules agree with Pydantic AI', () => {
  it('every probe but the approval of another type is written as the workbench’s answers', async () => {
    const inexpressible = [];
    for (const probe of probes) if ('inexpressible' in checkOfProbe(probe, await pausedContext(probe.request.case))) inexpressible.push(probe.name);
    expect(inexpressible).toEqual(['approve with a value of the wrong type']);
  });

  for (const probe of probes) {
    it(`${probe.name}: ${probe.result.accepted ? 'accepted' : `refused (${probe.result.error?.type})`}`, async ({ skip }) => {
      const written = checkOfProbe(probe, await pausedContext(probe.request.case));
      if ('inexpressible' in written) return skip(written.inexpressible);
      const { validation, verdict } = checked(written.check);
      expect(verdict, JSON.stringify(validation.errors)).toBe(probe.result.accepted ? 'accepted' : 'refused');
      if (!probe.result.accepted) {
        const said = validation.errors.map((issue) => sortedSets(issue.message)).join('\n');
        expect(said).toContain(`${probe.result.error!.type}: ${sortedSets(probe.result.error!.message)}`);
      }
    });
  }
});
