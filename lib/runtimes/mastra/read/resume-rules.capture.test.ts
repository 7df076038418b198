import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf, type ApproveAnswer, type DenyAnswer, type ResumeVerdict, type ValueAnswer } from '../../../contract/resume-answers';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import { resumeContextFrom, type ResumeContext } from '../../resume-context';
import { resumeSnippet, validateResume, type ResumeValidation } from '../../validate-resume';
import { frameworkInterpreter, runFrameworkScript, type FrameworkInterpreter } from '../../testing/framework-probes';
import { loadFrameworkFixture, PROJECT_DIR, recordedRuns } from '../../testing/framework-fixtures';

/**
 * Every Mastra answer rule, checked against Mastra itself: each request of
 * scripts/fixtures/frameworks/mastra/probe-requests.json is sent through the real Mastra by its
 * answer probe (the pause made offline; each answer its own run — approveToolCall,
 * declineToolCall, resumeStream) and — each answer, to the run it was sent to — through
 * Loopscope's rules on the recorded fixture of that case. Loopscope must say what Mastra did:
 * accepted (with the very call Mastra got, and a warning where the tool then does not run or the
 * call stays suspended), or refused with Mastra's own error. The app's packages and Node 22 are
 * installed by scripts/ensure-node-app.js on first run.
 */
interface MastraProbe {
  label: string;
  case: string;
  answer: Record<string, unknown>;
}
interface MastraSent {
  kind: 'approve' | 'decline' | 'resume';
  toolCallId: string;
  reason?: string;
  resumeData?: unknown;
}
interface ProbeRun {
  accepted: boolean;
  error: { type: string; message: string; id?: string } | null;
  outcome: string;
  sent: MastraSent[];
  toolsRun: { toolCallId: string; tool: string; status: string }[];
  runs: { outcome: string; pending: { kind: string; toolCallId: string }[] }[];
}

const FOLDER = path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', 'mastra');
const PROBES = JSON.parse(readFileSync(path.join(FOLDER, 'probe-requests.json'), 'utf8')) as MastraProbe[];
const RECORDED = new Map((JSON.parse(readFileSync(path.join(FOLDER, 'probe-results.json'), 'utf8')) as (MastraProbe & { result: ProbeRun })[]).map((probe) => [probe.label, probe.result]));
const METHOD = { approve: 'approveToolCall', decline: 'declineToolCall', resume: 'resumeStream' } as const;

let mastra: FrameworkInterpreter;
beforeAll(async () => {
  mastra = await frameworkInterpreter('mastra');
}, 900_000);

/** The probe's answers in order (a list under one id: several answers to it), each its own run. */
const answersOf = (probe: MastraProbe): [string, unknown][] => Object.entries(probe.answer).flatMap(([id, answer]) => (Array.isArray(answer) ? answer.map((one): [string, unknown] => [id, one]) : [[id, answer] as [string, unknown]]));

/** One probe answer as Loopscope's answer (`name`: the tool of the call). */
function loopscopeAnswer(options: { id: string; answer: unknown; name: string }): { approve?: ApproveAnswer[]; deny?: DenyAnswer[]; values?: ValueAnswer[] } {
  const { id, answer, name } = options;
  const type = isObject(answer) ? answer.type : undefined;
  if (type === 'approve') return { approve: [{ name, ref: id }] };
  if (type === 'deny') return { deny: [{ name, ref: id, ...(isObject(answer) && typeof answer.message === 'string' ? { reason: answer.message } : {}) }] };
  // Mastra takes a caller's result only as resume data (the probe sends it through resumeStream).
  if (type === 'result' || type === 'resume') return { values: [{ name, ref: id, value: (answer as Record<string, unknown>).value }] };
  return { values: [{ name, ref: id, value: answer }] };
}

/** The answers the fixture's runs were given, in order: the runs after them are what a probe sending the same answers meets. */
function recordedAnswers(fixtureCase: string): string[] {
  return recordedRuns<{ answer?: { kind: string; toolCallId: string } }>('mastra', fixtureCase).recorded.runs.flatMap((run) => (run.answer ? [`${run.answer.kind}:${run.answer.toolCallId}`] : []));
}
const probeKind = (answer: unknown) => {
  const type = isObject(answer) ? answer.type : undefined;
  return type === 'approve' ? 'approve' : type === 'deny' ? 'decline' : 'resume';
};

type Check = { refusedAs: 'no paused run' } | { context: ResumeContext; validation: ResumeValidation; verdict: ResumeVerdict };

/**
 * Loopscope's check of each answer, against the run it is sent to: the fixture's generate after
 * the earlier answers (which must be the fixture's own, so that run is the one the probe met).
 */
async function checkInOrder(probe: MastraProbe): Promise<Check[]> {
  const spans: Span[] = await loadFrameworkFixture('mastra', probe.case);
  const generates = buildRunGraph(spans).generates;
  const recorded = recordedAnswers(probe.case);
  const checks: Check[] = [];
  for (const [position, [id, answer]] of answersOf(probe).entries()) {
    const target = generates[position];
    if (!target || target.status !== 'interrupted') {
      // The run this answer goes to did not pause (it completed): Loopscope has nothing to answer.
      expect(() => resumeContextFrom(spans, { generateSpanId: target?.spanId })).toThrow(/is not an interrupted generate|hold no interrupted generate/);
      checks.push({ refusedAs: 'no paused run' });
      break;
    }
    const context = resumeContextFrom(spans, { generateSpanId: target.spanId });
    const name = context.requests.find((request) => request.ref === id)?.name ?? 'get_weather';
    const validation = validateResume({ context, ...loopscopeAnswer({ id, answer, name }) });
    checks.push({ context, validation, verdict: resumeVerdictOf(validation) });
    if (validation.errors.length > 0) break;
    // The next answer meets the fixture's next run only if this one is the fixture's own.
    if (recorded[position] !== `${probeKind(answer)}:${id}`) break;
  }
  return checks;
}

describe('Mastra’s answer rules, each sent through Mastra', () => {
  for (const probe of PROBES) {
    it(`${probe.label}: Loopscope says what Mastra did`, async () => {
      const run = (await runFrameworkScript({ interpreter: mastra, script: 'probe_answer', input: { case: probe.case, answer: probe.answer } })) as unknown as ProbeRun;
      // Mastra does today what the recording says it did.
      const recorded = RECORDED.get(probe.label)!;
      expect({ accepted: run.accepted, outcome: run.outcome, error: run.error?.id ?? run.error?.type ?? null }).toEqual({ accepted: recorded.accepted, outcome: recorded.outcome, error: recorded.error?.id ?? recorded.error?.type ?? null });

      const checks = await checkInOrder(probe);
      const last = checks.at(-1)!;
      const verdicts = checks.map((check) => ('verdict' in check ? check.verdict : 'refused'));
      expect(verdicts.every((verdict) => verdict === 'accepted'), JSON.stringify(checks.map((check) => ('validation' in check ? check.validation.errors : check)))).toBe(run.accepted);
      if (!run.accepted) {
        if ('validation' in last) expect(last.validation.errors.map((issue) => issue.message).join(' ')).toContain(`${run.error!.type}: ${run.error!.message}`);
        else expect(run.error!.id).toBe('AGENT_RESUME_NO_SNAPSHOT_FOUND');
        return;
      }
      checks.forEach((check, position) => {
        if (!('validation' in check)) return;
        const { validation, context } = check;
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
    }, 240_000);
  }

  it('two answers to the paused call in one check: refused as Mastra refuses the second run', async () => {
    const recorded = RECORDED.get('approval: approved twice (a second run answering the same call)')!;
    const spans = await loadFrameworkFixture('mastra', 'approval-approve');
    const context = resumeContextFrom(spans);
    const { errors } = validateResume({ context, approve: [{ name: 'book_table', ref: 'call_book_table' }], deny: [{ name: 'book_table', ref: 'call_book_table' }] });
    const probeRunId = /runId "([^"]+)"/.exec(recorded.error!.message)![1];
    const firstSentence = recorded.error!.message.replace(probeRunId, context.conversationId!).split('. ')[0];
    expect(errors.map((issue) => issue.message).join(' ')).toContain(`Error: ${firstSentence}.`);
  });

  // The code the workbench gives, run as the app would run it: Mastra does with it what it did with the probe's answer.
  for (const label of ['approval: approve', 'approval: deny with a message', 'suspend: resume with a value', 'two approvals: both approved, one run each']) {
    it(`${label}: the answer's TypeScript runs in Mastra and does what the answer says`, async () => {
      const probe = PROBES.find((candidate) => candidate.label === label)!;
      const run = (await runFrameworkScript({ interpreter: mastra, script: 'probe_answer', input: { case: probe.case, answer: probe.answer } })) as unknown as ProbeRun;
      const checks = await checkInOrder(probe);
      const position = checks.length - 1;
      const check = checks[position];
      if (!('validation' in check)) throw new Error(`${label}: no paused run to answer`);
      const { context, validation } = check;
      const code = resumeSnippet({ context, payload: validation.payload });
      const snippet = await runFrameworkScript({ interpreter: mastra, script: 'run_snippet', input: { case: probe.case, code, recordedRunId: context.conversationId, before: run.sent.slice(0, position) } });
      expect(snippet.error).toBeNull();
      expect(snippet.ran).toBe(true);
      expect(snippet.outcome).toBe(run.runs[position].outcome);
      const answered = run.sent[position].toolCallId;
      expect((snippet.toolsRun as ProbeRun['toolsRun']).map((tool) => [tool.toolCallId, tool.status])).toEqual(run.toolsRun.filter((tool) => tool.toolCallId === answered).map((tool) => [tool.toolCallId, tool.status]));
    }, 240_000);
  }
});
