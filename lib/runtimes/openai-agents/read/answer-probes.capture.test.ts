import { beforeAll, describe, expect, it } from 'vitest';
import { frameworkPython, recordedAnswerProbes, runAnswerProbes, type ProbeResult } from '../../testing/answer-probe-batches';
import { checked, checkOfProbe, pausedContext } from './testing/probe-checks';

/**
 * Every answer probe sent again through the real OpenAI Agents SDK (its venv, made by
 * scripts/ensure-venv.js on a fresh machine; the model is the app's scripted Responses API on
 * loopback): once as the probe's own answer — the SDK still does what answer-probes.json recorded,
 * and Loopscope's rules still agree — and once as the Python snippet Loopscope gives for the same
 * answer, run as the app would paste it (on the paused run's `result` and `agent`): accepted as
 * the answer was, it runs the same tools and ends the same way.
 */
const probes = recordedAnswerProbes('openai-agents');
let live: ProbeResult[] = [];
let snippets = new Map<string, ProbeResult>();

beforeAll(async () => {
  const python = await frameworkPython('openai-agents');
  const written = await Promise.all(probes.map(async (probe) => ({ probe, written: checkOfProbe(probe, await pausedContext(probe.request.case)) })));
  // An answer Loopscope refuses (a result or a value: the SDK has no API for them) has no snippet to run.
  const withSnippet = written.flatMap(({ probe, written: one }) => ('check' in one && checked(one.check).verdict === 'accepted' ? [{ probe, snippet: checked(one.check).snippet }] : []));
  const results = await runAnswerProbes({
    framework: 'openai-agents',
    python,
    requests: [...probes.map((probe) => probe.request), ...withSnippet.map(({ probe, snippet }) => ({ case: probe.request.case, snippet }))],
  });
  live = results.slice(0, probes.length);
  snippets = new Map(withSnippet.map(({ probe }, position) => [probe.name, results[probes.length + position]]));
}, 900_000);

const ranIds = (result: ProbeResult) => result.toolsRun.map((tool) => `${tool.toolCallId}:${tool.status}`);
const pendingIds = (result: ProbeResult) => (result.pendingAfter ?? []).map((pending) => pending.toolCallId);

describe('OpenAI Agents SDK answer probes, live', () => {
  probes.forEach((probe, position) => {
    it(`${probe.name}: the SDK does as recorded, and the snippet does the same`, async () => {
      const now = live[position];
      expect({ accepted: now.accepted, error: now.error?.type, tools: ranIds(now), outcome: now.outcome, pending: pendingIds(now) }).toEqual({
        accepted: probe.result.accepted,
        error: probe.result.error?.type,
        tools: ranIds(probe.result),
        outcome: probe.result.outcome,
        pending: pendingIds(probe.result),
      });
      const written = checkOfProbe(probe, await pausedContext(probe.request.case));
      if ('inexpressible' in written) return;
      expect(checked(written.check).verdict).toBe(now.accepted ? 'accepted' : 'refused');
      const snippet = snippets.get(probe.name);
      if (!snippet) return;
      expect({ accepted: snippet.accepted, error: snippet.error?.type, tools: ranIds(snippet), outcome: snippet.outcome, pending: pendingIds(snippet), outputs: snippet.toolOutputs }).toEqual({
        accepted: true,
        error: undefined,
        tools: ranIds(now),
        outcome: now.outcome,
        pending: pendingIds(now),
        outputs: now.toolOutputs,
      });
    });
  });
});
