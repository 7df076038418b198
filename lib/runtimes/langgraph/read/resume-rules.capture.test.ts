import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf } from '../../../contract/resume-answers';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { answerProbeRunner, loopscopeAnswers, probeRequests, recordedAnswerProbes, runAnswerProbes, type AnswerProbe, type ProbeResult } from '../../testing/answer-probes';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';

/**
 * Every LangGraph answer rule, checked against LangGraph itself: each probe of
 * scripts/fixtures/frameworks/langgraph/probe-requests.json is sent through the real LangGraph by
 * its answer probe (the pause made offline, one `graph.invoke(Command(resume=…))`; all in one probe
 * process) and, the same answer, through Loopscope's rules on the recorded fixture of the same
 * case — under both instrumentations. LangGraph must still do what answer-probes.json recorded, and
 * Loopscope must say what LangGraph did — accepted, or refused with LangGraph's own error — and
 * build the resume values LangGraph was sent. The venv is installed by scripts/ensure-venv.js on
 * first run.
 */
const PROBES = probeRequests('langgraph');
const RECORDED = new Map(recordedAnswerProbes('langgraph').map((probe) => [probe.name, probe.result]));
/** The probes whose answer is also given as the code the workbench writes, run in LangGraph as the app would run it. */
const SNIPPETS = ['both answered: approve', 'both answered: deny with a message', 'one of two left unanswered', 'review node: caller-supplied result'];
const probeNamed = (name: string): AnswerProbe => PROBES.find((probe) => probe.name === name)!;

async function loopscopeCheck(options: { probe: AnswerProbe; instrumentation: 'genai' | 'openinference' }) {
  const { request } = options.probe;
  const context = resumeContextFrom(await loadFrameworkFixture('langgraph', `${options.instrumentation}-${request.case}`));
  const answers = loopscopeAnswers({ request, nameOf: (callId) => context.requests.find((candidate) => candidate.ref === callId)?.name });
  const validation = validateResume({ context, ...answers });
  return { context, validation, verdict: resumeVerdictOf(validation) };
}

/** A resume map keyed by tool call id instead of interrupt id (the ids differ from run to run; the calls do not). */
function byCall(options: { resume: Record<string, unknown>; callOf: (interruptId: string) => string | undefined }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options.resume).map(([key, value]) => [options.callOf(key) ?? key, value]));
}

let live = new Map<string, ProbeResult>();
let snippets = new Map<string, ProbeResult>();
beforeAll(async () => {
  // The code runs on the probe's own pause: the interrupt ids and thread it names are replaced by the pause's.
  const codes = await Promise.all(
    SNIPPETS.map(async (name) => {
      const { context, validation } = await loopscopeCheck({ probe: probeNamed(name), instrumentation: 'genai' });
      const interrupts = Object.fromEntries(context.requests.filter((candidate) => candidate.pauseId !== undefined).map((candidate) => [candidate.pauseId, candidate.ref]));
      return { case: probeNamed(name).request.case, snippet: resumeSnippet({ context, payload: validation.payload }), interrupts, thread: context.conversationId };
    }),
  );
  const results = await runAnswerProbes({ probe: await answerProbeRunner('langgraph'), requests: [...PROBES.map((probe) => probe.request), ...codes] });
  live = new Map(PROBES.map((probe, index) => [probe.name, results[index]]));
  snippets = new Map(SNIPPETS.map((name, index) => [name, results[PROBES.length + index]]));
}, 900_000);

describe('LangGraph’s answer rules, each sent through LangGraph', () => {
  for (const probe of PROBES) {
    it(`${probe.name}: Loopscope says what LangGraph did`, async () => {
      const langGraph = live.get(probe.name)!;
      // LangGraph does today what the recording says it did.
      const recorded = RECORDED.get(probe.name)!;
      expect({ accepted: langGraph.accepted, outcome: langGraph.outcome, error: langGraph.error?.type ?? null }).toEqual({ accepted: recorded.accepted, outcome: recorded.outcome, error: recorded.error?.type ?? null });

      const [genai, openinference] = await Promise.all([loopscopeCheck({ probe, instrumentation: 'genai' }), loopscopeCheck({ probe, instrumentation: 'openinference' })]);
      for (const loopscope of [genai, openinference]) {
        expect(loopscope.verdict, JSON.stringify(loopscope.validation.errors)).toBe(langGraph.accepted ? 'accepted' : 'refused');
        if (!langGraph.accepted) {
          // Refused with LangGraph's own error.
          expect(loopscope.validation.errors.map((issue) => issue.message).join(' ')).toContain(`${langGraph.error!.type}`);
          continue;
        }
        // The values Loopscope sends are what LangGraph was sent, call by call.
        const probeSent = langGraph.sent as { resume: Record<string, unknown> };
        const probePending = langGraph.pendingBefore as { interruptId: string; toolCallId: string }[];
        const built = (loopscope.validation.payload.answer as { resume: Record<string, unknown> }).resume;
        expect(byCall({ resume: built, callOf: (id) => loopscope.context.requests.find((candidate) => candidate.pauseId === id)?.ref })).toEqual(
          byCall({ resume: probeSent.resume, callOf: (id) => probePending.find((item) => item.interruptId === id)?.toolCallId }),
        );
      }
    });
  }

  // The code the workbench gives, run as the app would run it (on its own pause: the interrupt ids and thread are the app's).
  for (const name of SNIPPETS) {
    it(`${name}: the answer's Python runs in LangGraph and does what the probe's did`, () => {
      const probe = live.get(name)!;
      const snippet = snippets.get(name)!;
      expect(snippet.error).toBeNull();
      // The same calls answered (a ToolMessage each) and the same interrupts left pending as the probe's answer.
      expect(snippet.pendingAfter).toHaveLength((probe.pendingAfter as string[]).length);
      expect(snippet.finalText).toBe(probe.finalText);
      // The same tool bodies ran, call by call (a caller's result runs none).
      expect(snippet.toolsRun.map((tool) => [tool.toolCallId, tool.status])).toEqual(probe.toolsRun.map((tool) => [tool.toolCallId, tool.status]));
    });
  }
});
