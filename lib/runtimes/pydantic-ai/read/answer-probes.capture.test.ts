import { beforeAll, describe, expect, it } from 'vitest';
import { frameworkPython, recordedAnswerProbes, runAnswerProbes, type ProbeResult } from '../../testing/answer-probe-batches';
import { checked, checkOfProbe, pausedContext, sortedSets } from './testing/probe-checks';

/**
 * Every answer probe sent again through real Pydantic AI (its venv, made by scripts/ensure-venv.js
 * on a fresh machine): once as the probe's own answer — Pydantic AI still does what
 * answer-probes.json recorded, and Loopscope's rules still agree — and once as the Python snippet
 * Loopscope gives for the same answer, run as the app would paste it (the message history rebuilt
 * from the recorded spans, DeferredToolResults, the paused run's conversation id): the snippet is
 * accepted or refused as the answer was, runs the same tools and ends the same way.
 */
const probes = recordedAnswerProbes('pydantic-ai');
let live: ProbeResult[] = [];
let snippets = new Map<string, ProbeResult>();

beforeAll(async () => {
  const python = await frameworkPython('pydantic-ai');
  const written = await Promise.all(probes.map(async (probe) => ({ probe, written: checkOfProbe(probe, await pausedContext(probe.request.case)) })));
  const withSnippet = written.flatMap(({ probe, written: one }) => ('check' in one ? [{ probe, snippet: checked(one.check).snippet }] : []));
  const results = await runAnswerProbes({
    framework: 'pydantic-ai',
    python,
    requests: [...probes.map((probe) => probe.request), ...withSnippet.map(({ probe, snippet }) => ({ case: probe.request.case, snippet }))],
  });
  live = results.slice(0, probes.length);
  snippets = new Map(withSnippet.map(({ probe }, position) => [probe.name, results[probes.length + position]]));
}, 900_000);

const ranIds = (result: ProbeResult) => result.toolsRun.map((tool) => `${tool.toolCallId}:${tool.status}`);

describe('Pydantic AI answer probes, live', () => {
  probes.forEach((probe, position) => {
    it(`${probe.name}: Pydantic AI does as recorded, and the snippet does the same`, async () => {
      const now = live[position];
      expect({ accepted: now.accepted, error: now.error?.type, tools: ranIds(now), outcome: now.outcome }).toEqual({
        accepted: probe.result.accepted,
        error: probe.result.error?.type,
        tools: ranIds(probe.result),
        outcome: probe.result.outcome,
      });
      if (now.error) expect(sortedSets(now.error.message)).toBe(sortedSets(probe.result.error!.message));
      const written = checkOfProbe(probe, await pausedContext(probe.request.case));
      if ('inexpressible' in written) return;
      expect(checked(written.check).verdict).toBe(now.accepted ? 'accepted' : 'refused');
      const snippet = snippets.get(probe.name)!;
      expect({ accepted: snippet.accepted, error: snippet.error?.type, tools: ranIds(snippet), outcome: snippet.outcome }).toEqual({ accepted: now.accepted, error: now.error?.type, tools: ranIds(now), outcome: now.accepted ? now.outcome : null });
      if (snippet.error) expect(sortedSets(snippet.error.message)).toBe(sortedSets(now.error!.message));
      // The answering run continues the paused run's conversation: Loopscope ties its trace to the pause by it.
      if (snippet.accepted) expect(snippet.conversationId).toBe(written.check.context.conversationId);
    });
  });
});
