/**
 * Mastra's answer probes (lib/runtimes/mastra/__fixtures__/answer-probes.json) as the answers
 * Loopscope checks. Mastra answers one pause per run, so a probe's answers are checked in order,
 * each against the run it is sent to: the recorded fixture's generate after the earlier answers,
 * as long as those were the fixture's own (else the probe met a run the fixture did not record).
 * A neutral answer becomes the workbench's (approve, deny, resume → a value; a caller's result is a
 * value too: Mastra takes one only as resume data). For tests only.
 */
import { expect } from 'vitest';
import { buildRunGraph } from '../../../../graph/build-run-graph';
import type { ResumeContext, ResumeValidation } from '../../../../loop/resume-model';
import { checkAnswers, type AnswerProbeRules, type ProbeCheck } from '../../../testing/answer-probe-rules';
import { loopscopeAnswers, neutralAnswers, type NeutralAnswer, type ProbeResult } from '../../../testing/answer-probes';
import { loadFrameworkFixture, recordedRuns } from '../../../testing/framework-fixtures';
import { resumeContextFrom } from '../../../resume-context';

/** What Mastra's probe reports besides the protocol's fields: the calls it sent and each answering run. */
interface MastraRun {
  sent: { kind: 'approve' | 'decline' | 'resume'; toolCallId: string; reason?: string; resumeData?: unknown }[];
  runs: { outcome: string; pending: { kind: string; toolCallId: string }[] }[];
}
const mastraRun = (result: ProbeResult) => result as ProbeResult & MastraRun;

/** One answer's check, against the run it was sent to. */
interface Step {
  context: ResumeContext;
  validation: ResumeValidation;
}

/** What Loopscope says where there is no paused call to answer (`read`: its reading of one). */
function noPausedCall(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('a run that did not pause was read as paused');
}

const METHOD = { approve: 'approveToolCall', decline: 'declineToolCall', resume: 'resumeStream' } as const;
const methodOf = (answer: NeutralAnswer) => (answer.kind === 'approve' ? 'approve' : answer.kind === 'deny' ? 'decline' : 'resume');

/** The answers the fixture's runs were given, in order: the runs after them are what a probe sending the same answers meets. */
function recordedAnswers(fixtureCase: string): string[] {
  return recordedRuns<{ answer?: { kind: string; toolCallId: string } }>('mastra', fixtureCase).recorded.runs.flatMap((run) => (run.answer ? [`${run.answer.kind}:${run.answer.toolCallId}`] : []));
}

/** Mastra's reading of its probes, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
export const probeRules: AnswerProbeRules<ProbeCheck & { steps: (Step & ProbeCheck)[] }> = {
  runtime: 'mastra',
  framework: 'Mastra',
  inexpressible: [],
  async check(probe) {
    const { request } = probe;
    const spans = await loadFrameworkFixture('mastra', request.case);
    const generates = buildRunGraph(spans).generates;
    const recorded = recordedAnswers(request.case);
    const answers = neutralAnswers(request);
    const steps: (Step & ProbeCheck)[] = [];
    const errors: string[] = [];
    let refused = false;
    for (const [position, { callId, answer }] of answers.entries()) {
      const target = generates[position];
      if (target?.status !== 'interrupted') {
        // The run this answer goes to did not pause (it completed): Loopscope has nothing to answer, and says so.
        errors.push(noPausedCall(() => resumeContextFrom(spans, { generateSpanId: target?.spanId })));
        refused = true;
        break;
      }
      const context = resumeContextFrom(spans, { generateSpanId: target.spanId });
      const one = { case: request.case, answer: { [callId]: answer.kind === 'result' ? { ...answer, kind: 'resume' } : answer } };
      const step = checkAnswers({ context, answers: loopscopeAnswers({ request: one, context }), case: request.case });
      steps.push(step);
      errors.push(...step.errors);
      if (step.verdict !== 'accepted') {
        refused = true;
        break;
      }
      // The next answer meets the fixture's next run only if this one is the fixture's own.
      if (recorded[position] !== `${methodOf(answer)}:${callId}`) break;
    }
    const last = steps.at(-1);
    // The code Loopscope gives answers the run the probe's last answer went to: the earlier answers are sent first, as the probe sent them.
    const snippet = !refused && last && steps.length === answers.length ? { ...last.snippet!, recordedRunId: last.context.conversationId, before: (mastraRun(probe.result).sent ?? []).slice(0, steps.length - 1) } : undefined;
    return { verdict: refused ? 'refused' : 'accepted', errors, warnings: steps.flatMap((step) => step.warnings), steps, snippet };
  },
  refusal(result) {
    // A second answer to a run that already completed: Mastra finds no suspended run, Loopscope no paused call.
    if (result.error?.id === 'AGENT_RESUME_NO_SNAPSHOT_FOUND') return /is not an interrupted generate|hold no interrupted generate/;
    return `${result.error?.type}: ${result.error?.message}`;
  },
  agrees({ probe, check }) {
    const run = mastraRun(probe.result);
    if (!run.accepted) return;
    check.steps.forEach(({ validation, context }, position) => {
      // The call Loopscope builds is the call Mastra got.
      const sent = run.sent[position];
      expect(validation.payload.answer).toEqual({ method: METHOD[sent.kind], toolCallId: sent.toolCallId, ...(sent.reason !== undefined ? { reason: sent.reason } : {}), ...(sent.kind === 'resume' ? { resumeData: sent.resumeData } : {}) });
      const warnings = validation.warnings.map((issue) => issue.message).join(' ');
      const request = context.requests.find((candidate) => candidate.ref === sent.toolCallId)!;
      const stillPaused = run.runs[position].pending.some((pending) => pending.toolCallId === sent.toolCallId);
      const ran = run.toolsRun.some((tool) => tool.toolCallId === sent.toolCallId && tool.status === 'success');
      // Where the call stays suspended, or the tool then does not run, Loopscope warns so.
      expect(/leaves it suspended/.test(warnings)).toBe(stillPaused);
      if (request.pausedAs?.startsWith('suspended') && sent.kind !== 'resume') expect(/does not run/.test(warnings)).toBe(!ran);
    });
  },
  // Each answering run's outcome and the calls it left: Mastra answers one pause per run.
  stable: (result) => (mastraRun(result).runs ?? []).map((run) => ({ outcome: run.outcome, pending: run.pending.map((pending) => pending.toolCallId) })),
};

