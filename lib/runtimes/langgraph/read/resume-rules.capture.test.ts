import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf } from '../../../contract/resume-answers';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { loopscopeAnswers, probePython, probeRequests, runProbe, runSnippet, type ProbeRequest } from '../../testing/answer-probes';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';

/**
 * Every LangGraph answer rule, checked against LangGraph itself: each probe request
 * (scripts/fixtures/frameworks/langgraph/probe-requests.json) is sent through the real LangGraph
 * by its answer probe (the pause made offline, one `graph.invoke(Command(resume=…))`) and, the same
 * answer, through Loopscope's rules on the recorded fixture of the same case — under both
 * instrumentations. Loopscope must say what LangGraph did — accepted, or refused with LangGraph's
 * own error — and build the resume values LangGraph was sent. The venv is installed by
 * scripts/ensure-venv.js on first run.
 */
let python: string;
beforeAll(async () => {
  python = await probePython('langgraph');
}, 900_000);

async function loopscopeCheck(options: { request: ProbeRequest; instrumentation: 'genai' | 'openinference' }) {
  const { request } = options;
  const context = resumeContextFrom(await loadFrameworkFixture('langgraph', `${options.instrumentation}-${request.case}`));
  const answers = loopscopeAnswers({ answer: request.answer, nameOf: (callId) => context.requests.find((candidate) => candidate.ref === callId)?.name });
  const validation = validateResume({ context, ...answers });
  return { context, validation, verdict: resumeVerdictOf(validation) };
}

/** A resume map keyed by tool call id instead of interrupt id (the ids differ from run to run; the calls do not). */
function byCall(options: { resume: Record<string, unknown>; callOf: (interruptId: string) => string | undefined }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options.resume).map(([key, value]) => [options.callOf(key) ?? key, value]));
}

describe('LangGraph’s answer rules, each sent through LangGraph', () => {
  for (const request of probeRequests('langgraph')) {
    it(`${request.label}: Loopscope says what LangGraph did`, async () => {
      const [langGraph, genai, openinference] = await Promise.all([
        runProbe({ framework: 'langgraph', python, request }),
        loopscopeCheck({ request, instrumentation: 'genai' }),
        loopscopeCheck({ request, instrumentation: 'openinference' }),
      ]);
      for (const loopscope of [genai, openinference]) {
        expect(loopscope.verdict, JSON.stringify(loopscope.validation.errors)).toBe(langGraph.accepted ? 'accepted' : 'refused');
        if (!langGraph.accepted) {
          // Refused with LangGraph's own error.
          expect(loopscope.validation.errors.map((issue) => issue.message).join(' ')).toContain(`${langGraph.error!.type}`);
          continue;
        }
        // The values Loopscope sends are what LangGraph was sent, call by call.
        const probeSent = langGraph.sent as { resume: Record<string, unknown> };
        const probePending = (langGraph as unknown as { pendingBefore: { interruptId: string; toolCallId: string }[] }).pendingBefore;
        const built = (loopscope.validation.payload.answer as { resume: Record<string, unknown> }).resume;
        expect(byCall({ resume: built, callOf: (id) => loopscope.context.requests.find((candidate) => candidate.pauseId === id)?.ref })).toEqual(
          byCall({ resume: probeSent.resume, callOf: (id) => probePending.find((item) => item.interruptId === id)?.toolCallId }),
        );
      }
    }, 240_000);
  }

  // The code the workbench gives, run as the app would run it (on its own pause: the interrupt ids and thread are the app's).
  for (const label of ['both answered: approve', 'both answered: deny with a message', 'one of two left unanswered', 'review node: caller-supplied result']) {
    it(`${label}: the answer's Python runs in LangGraph and does what the probe's did`, async () => {
      const request = probeRequests('langgraph').find((candidate) => candidate.label === label)!;
      const { context, validation } = await loopscopeCheck({ request, instrumentation: 'genai' });
      const code = resumeSnippet({ context, payload: validation.payload });
      const interrupts = Object.fromEntries(context.requests.filter((candidate) => candidate.pauseId !== undefined).map((candidate) => [candidate.pauseId, candidate.ref]));
      const [langGraph, snippet] = await Promise.all([
        runProbe({ framework: 'langgraph', python, request }),
        runSnippet({ framework: 'langgraph', python, fixtureCase: request.case, code, extra: { interrupts, thread: context.conversationId } }),
      ]);
      expect(snippet.error).toBeNull();
      // The same calls answered (a ToolMessage each) and the same interrupts left pending as the probe's answer.
      const probe = langGraph as unknown as { toolsRun: { toolCallId: string; status: string }[]; pendingAfter: string[]; finalText: string | null };
      expect(snippet.pendingAfter).toHaveLength(probe.pendingAfter.length);
      expect(snippet.finalText).toBe(probe.finalText);
      expect(snippet.toolsRun.filter((tool) => tool.status === 'success' || tool.status === 'error').length).toBeGreaterThan(0);
    }, 240_000);
  }
});
