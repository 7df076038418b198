import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf, type ValueAnswer } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { resumeContextFrom, type ResumeContext } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { frameworkInterpreter, runFrameworkScript, type FrameworkInterpreter } from '../../testing/framework-probes';
import { loadFrameworkFixture, PROJECT_DIR } from '../../testing/framework-fixtures';

/**
 * Every Strands answer rule, checked against Strands itself: each probe of
 * scripts/fixtures/frameworks/strands/probes.json is sent through the real Strands Agents by its
 * answer probe (the pause made offline, the agent called again with interruptResponse blocks) and
 * — the same responses, to the same interrupts — through Loopscope's rules on the recorded fixture
 * of that pause. Loopscope must say what Strands did: accepted (with the very blocks Strands was
 * sent, and a warning where Strands pauses again or HumanInTheLoop denies), or refused with
 * Strands' own error. The venv is installed by scripts/ensure-venv.js on first run.
 */
interface StrandsProbe {
  name: string;
  request: { case: string; answer?: Record<string, unknown>; input?: unknown };
}
interface ProbeRun {
  accepted: boolean;
  error: { type: string; message: string } | null;
  outcome: string;
  sent: unknown;
  toolsRun: { toolUseId: string; toolName: string; status: string }[];
}

const FOLDER = path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', 'strands');
const PROBES = JSON.parse(readFileSync(path.join(FOLDER, 'probes.json'), 'utf8')) as StrandsProbe[];
const RECORDED = new Map((JSON.parse(readFileSync(path.join(PROJECT_DIR, 'lib', 'runtimes', 'strands', '__fixtures__', 'answer-probes.json'), 'utf8')) as { probes: { name: string; result: ProbeRun }[] }).probes.map((probe) => [probe.name, probe.result]));
/** The recorded fixture whose first run is each probe's pause. */
const FIXTURE_OF: Record<string, string> = { hook: 'events-hook-approve', 'hook-two': 'events-hook-two-mixed', intervention: 'events-intervention-approve', 'tool-interrupt': 'events-tool-interrupt-confirm' };
/**
 * Answers Loopscope cannot send, by construction: its answer is always a list of interruptResponse
 * blocks, each naming its interrupt by the interrupt's id (asserted below), never a prompt or a tool use id.
 */
const NOT_SENDABLE = new Set(['send a plain prompt instead of answers', 'answer with the tool use id as the interrupt id']);

let strands: FrameworkInterpreter;
beforeAll(async () => {
  strands = await frameworkInterpreter('strands');
}, 900_000);

/** Loopscope's answers for the blocks Strands was sent: each names the paused call whose interrupt id it carries (else the call of that id, else an unknown one). */
function valuesOf(context: ResumeContext, sent: unknown): ValueAnswer[] {
  return (Array.isArray(sent) ? sent : []).map((block) => {
    const response = isObject(block) && isObject(block.interruptResponse) ? block.interruptResponse : {};
    const id = String(response.interruptId);
    const call = context.requests.find((request) => request.pauseId === id) ?? context.requests.find((request) => request.ref === id);
    return { name: call?.name ?? 'unknown_tool', ref: call?.ref ?? id, value: 'response' in response ? response.response : undefined };
  });
}

async function check(probe: StrandsProbe, sent: unknown) {
  const context = resumeContextFrom(await loadFrameworkFixture('strands', FIXTURE_OF[probe.request.case]));
  const validation = validateResume({ context, values: valuesOf(context, sent) });
  return { context, validation, verdict: resumeVerdictOf(validation) };
}

describe('Strands Agents’ answer rules, each sent through Strands', () => {
  for (const probe of PROBES.filter((candidate) => !NOT_SENDABLE.has(candidate.name))) {
    it(`${probe.name}: Loopscope says what Strands did`, async () => {
      const run = (await runFrameworkScript({ interpreter: strands, script: 'probe_answer', input: probe.request })) as unknown as ProbeRun;
      // Strands does today what the recording says it did.
      const recorded = RECORDED.get(probe.name)!;
      expect({ accepted: run.accepted, outcome: run.outcome, error: run.error && { type: run.error.type, message: run.error.message } }).toEqual({ accepted: recorded.accepted, outcome: recorded.outcome, error: recorded.error && { type: recorded.error.type, message: recorded.error.message } });

      const { context, validation, verdict } = await check(probe, run.sent);
      expect(verdict, JSON.stringify(validation.errors)).toBe(run.accepted ? 'accepted' : 'refused');
      if (!run.accepted) {
        // Refused with Strands' own error, word for word.
        expect(validation.errors.map((issue) => issue.message).join(' ')).toContain(`${run.error!.type}: ${run.error!.message}`);
        return;
      }
      // The blocks Loopscope builds are the blocks Strands was sent.
      expect(validation.payload.answer).toEqual(run.sent);
      const warnings = validation.warnings.map((issue) => issue.message).join(' ');
      // Where Strands pauses again (an interrupt unanswered or answered None), Loopscope warns so; nowhere else.
      expect(/pauses again/.test(warnings)).toBe(run.outcome === 'paused');
      // Where HumanInTheLoop denies on the response, Loopscope warns so.
      const intervention = context.requests.some((request) => request.pausedAs?.startsWith('approval required (HumanInTheLoop)'));
      if (intervention) expect(/HumanInTheLoop denies/.test(warnings)).toBe(run.toolsRun.length === 0);
    }, 240_000);
  }

  it('names each interrupt by its id, never by the tool use id Strands refuses (the probe: KeyError)', async () => {
    const recorded = RECORDED.get('answer with the tool use id as the interrupt id')!;
    expect(recorded).toMatchObject({ accepted: false, error: { type: 'KeyError', message: "'interrupt_id=<tooluse_book_paris> | no interrupt found'" } });
    const context = resumeContextFrom(await loadFrameworkFixture('strands', 'events-hook-approve'));
    const { payload } = validateResume({ context, values: [{ name: 'book_hotel', ref: 'tooluse_book_paris', value: { approved: true } }] });
    expect(payload.answer).toEqual([{ interruptResponse: { interruptId: 'v1:before_tool_call:tooluse_book_paris:7d6c7ca3-7c5a-5c0f-85bd-0886f61d34f8', response: { approved: true } } }]);
  });

  // The code the workbench gives, run as the app would run it: Strands does with it what it did with the probe's answer.
  for (const name of ["approve the hook's interrupt", 'answer both hook interrupts, each its way', 'deny the intervention ("n")', "resume the tool's interrupt with a value", 'leave one hook interrupt of two unanswered']) {
    it(`${name}: the answer's Python runs in Strands and does what the answer says`, async () => {
      const probe = PROBES.find((candidate) => candidate.name === name)!;
      const run = (await runFrameworkScript({ interpreter: strands, script: 'probe_answer', input: probe.request })) as unknown as ProbeRun;
      const { context, validation } = await check(probe, run.sent);
      const code = resumeSnippet({ context, payload: validation.payload });
      const snippet = await runFrameworkScript({ interpreter: strands, script: 'run_snippet', input: { case: probe.request.case, code } });
      expect(snippet.error).toBeNull();
      expect(snippet.ran).toBe(true);
      expect(snippet.outcome).toBe(run.outcome);
      expect((snippet.toolsRun as ProbeRun['toolsRun']).map((tool) => [tool.toolUseId, tool.status])).toEqual(run.toolsRun.map((tool) => [tool.toolUseId, tool.status]));
    }, 240_000);
  }
});
