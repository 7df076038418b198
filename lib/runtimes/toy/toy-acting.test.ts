import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spanFromEndedRecord } from '../../contract/ended-span';
import type { ResumeFromTrace } from '../../contract/resume-answers';
import { buildRunGraph } from '../../graph/build-run-graph';
import { startNodeRunnerHere, type NodeRunnerHere, type NodeRunnerOptions } from '../../runner/node-runner';
import type { RunnerEvent } from '../../runner/runner-protocol';
import { encodeOtlpJson } from '../../spans/otlp-json';
import type { Span } from '../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE, REPLAYS_LINK_VALUE } from '../../spans/trace-link-keys';
import { resumeTargetOf } from '../answer-target';
import { nodeRunnerOptions } from '../node-runner-options';
import { readReplayable } from '../read-recording';
import { resumeContextFrom } from '../resume-context';
import { validateResume } from '../validate-resume';
import { REGISTERED_RUNTIMES, withRuntime } from '../with-runtime';
import { toyRuntime } from './registration';
import { toyToolExecutions } from './run/toy-tools';

/**
 * The measure of the acting seam (issue 37): the toy loop — a runtime the registry does not list —
 * is registered for reading AND acting by the one line below, and the generic code runs it, answers
 * it and replays it: the node runner (lib/runner/node-runner.ts, its real OpenTelemetry SDK, span
 * reporter and outbox) with the engines of `runtimes`, the answer path (resume context, target,
 * rules: answer-target.ts, validate-resume.ts), and the replay path (read-recording.ts, the
 * runner's replay command). The runner runs in this process (`startNodeRunnerHere`): a runner
 * child process loads the registry's drivers only, so it cannot run a runtime a test registers.
 * Without the registration, the same calls fail saying the runtime is not known.
 */
const runtimes = withRuntime(toyRuntime);

/** A node runner in this process, its events collected: one command at a time, its result and the spans it ended. */
class RunnerHere {
  readonly ended: Span[] = [];
  private readonly results = new Map<string, RunnerEvent>();
  private ready?: Extract<RunnerEvent, { type: 'ready' }>;
  private readonly runner: NodeRunnerHere;
  private counter = 0;

  constructor(options: NodeRunnerOptions) {
    this.runner = startNodeRunnerHere({ ...options, send: (event) => this.receive(event), environment: { LOOPSCOPE_TOOLS_DIR: path.join(process.cwd(), 'tools') } });
  }

  private receive(event: RunnerEvent): void {
    if (event.type === 'span-events') {
      this.ended.push(...event.ends.map(spanFromEndedRecord));
      if (event.then) this.receive(event.then);
    } else if (event.type === 'ready') this.ready = event;
    else if (event.type === 'generate-result' || event.type === 'replay-result') this.results.set(event.requestId, event);
  }

  /** Sends a generate or replay and waits for its result (`receive` settles once the runner sent it). */
  async request<Type extends 'generate' | 'replay'>(command: { type: Type } & Record<string, unknown>) {
    const requestId = `toy-${++this.counter}`;
    await this.runner.receive({ runId: `run-${requestId}`, ...command, requestId });
    const result = this.results.get(requestId);
    if (!result) throw new Error(`The runner sent no result for ${requestId}.`);
    return result as Extract<RunnerEvent, { type: Type extends 'generate' ? 'generate-result' : 'replay-result' }>;
  }

  /** What the runner loaded, as the answer path's facts. */
  facts() {
    const ready = this.ready!;
    return { toolsByRuntime: ready.toolsByRuntime, models: ready.models, scenarios: ready.scenarios };
  }

  spansOf(traceIds: readonly string[]): Span[] {
    return this.ended.filter((span) => traceIds.includes(span.traceId));
  }

  shutdown = () => this.runner.shutdown();
}

const kinds = (spans: readonly Span[]) => spans.map((span) => `${span.attributes['toy.kind']}${span.attributes['toy.tool'] ? `:${span.attributes['toy.tool']}` : ''}`).sort();
const rootOf = (spans: readonly Span[], traceId: string) => spans.find((span) => span.traceId === traceId && span.parentSpanId === undefined)!;
const linksOf = (span: Span, type: string) => span.links.filter((link) => link.attributes[ANSWERS_LINK_ATTRIBUTE] === type).map((link) => `${link.traceId}:${link.spanId}`);
const answerOf = (output: unknown, traceIds: string[]): ResumeFromTrace => ({ source: { traceIds }, respond: [{ name: 'approve', ref: 'a1', output }], restart: [] });

let runner: RunnerHere;
let scratch: string;
/** The paused run, its answer and their spans: each test goes on from the one before. */
const recorded: { paused?: Span[]; answered?: Span[] } = {};

beforeAll(async () => {
  runner = new RunnerHere(nodeRunnerOptions(runtimes));
  scratch = await mkdtemp(path.join(os.tmpdir(), 'loopscope-toy-'));
});
afterAll(async () => {
  await runner?.shutdown();
  await rm(scratch, { recursive: true, force: true });
});

describe('the toy loop registered with one line, acting', () => {
  it('runs a scenario in the generic node runner: 7 spans recorded through the runner’s OpenTelemetry SDK', async () => {
    const toolsBefore = toyToolExecutions();
    const result = await runner.request({ type: 'generate', scenario: 'toy-weather' });
    expect(result.failure).toBeUndefined();
    expect(result.outcome).toMatchObject({ finishReason: 'paused', interrupts: [{ name: 'approve', ref: 'a1', input: { spend: 900 } }] });
    expect(result.traceIds).toHaveLength(1);
    // lookup, forecast and notify ran; approve paused the loop without running.
    expect(toyToolExecutions() - toolsBefore).toBe(3);
    // The toy runs beside the registered runtimes that run in Node, in one runner.
    expect(Object.keys(runner.facts().toolsByRuntime)).toEqual(['genkit-js', 'ai-sdk', 'toy-loop']);
    const spans = runner.spansOf(result.traceIds);
    // One loop, two turns, four tool calls: 1 + 2 + 4.
    expect(spans).toHaveLength(7);
    expect(kinds(spans)).toEqual(['loop', 'think', 'think', 'tool:approve', 'tool:forecast', 'tool:lookup', 'tool:notify']);
    expect(rootOf(spans, result.traceIds[0]).spanId).toBe(result.rootSpan?.spanId);
    expect(spans.every((span) => span.resource['service.name'] === 'loopscope-runner')).toBe(true);
    const graph = buildRunGraph(spans, runtimes);
    expect(graph.summary).toEqual({ traces: 1, generates: 1, modelCalls: 2, toolCalls: 4, interrupts: 1, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'paused' });
    expect(graph.generates[0].turns.map((turn) => turn.toolCalls.map((call) => `${call.name}#${call.ref}:${call.status}`))).toEqual([['lookup#l1:ok', 'forecast#f1:ok'], ['notify#n1:error', 'approve#a1:interrupted']]);
    recorded.paused = spans;
  });

  it('answers the pause by the toy’s rules through the generic answer path — the refused answer is refused by the toy loop too — and runs the accepted one', async () => {
    const paused = recorded.paused!;
    const traceIds = [paused[0].traceId];
    const context = resumeContextFrom(paused, runtimes);
    expect(context).toMatchObject({ dialect: 'toy-loop', model: 'scripted/toy-weather', requests: [{ name: 'notify', state: 'done' }, { name: 'approve', ref: 'a1', state: 'interrupted' }] });
    const facts = runner.facts();

    const accepted = answerOf(true, traceIds);
    const target = resumeTargetOf({ facts, context, request: accepted, ...runtimes });
    expect(target).toMatchObject({ runsIn: 'node-runner', blockers: [] });
    const acceptedCheck = validateResume({ context, respond: accepted.respond, localTools: target.localTools }, runtimes);
    expect(acceptedCheck.errors).toEqual([]);

    const refused = answerOf('maybe', traceIds);
    const refusedCheck = validateResume({ context, respond: refused.respond }, runtimes);
    expect(refusedCheck.errors).toEqual([{ code: 'INVALID_ARGUMENT', request: 'approve#a1', message: 'approve#a1 takes true or false, not "maybe".' }]);
    // The rule is the toy loop's: the same answer sent to it anyway, it refuses it with the same code.
    const refusedRun = await runner.request({ type: 'generate', ...resumeTargetOf({ facts, context, request: refused, ...runtimes }).command(refusedCheck) });
    expect(refusedRun.failure).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'approve#a1 takes true or false, not "maybe".' });
    expect(refusedRun.outcome).toBeUndefined();

    const toolsBefore = toyToolExecutions();
    const answered = await runner.request({ type: 'generate', ...target.command(acceptedCheck) });
    expect(answered.failure).toBeUndefined();
    expect(answered.outcome).toMatchObject({ finishReason: 'done', text: 'Rain, 3 mm; grey for two days. The trip is answered.' });
    expect(toyToolExecutions()).toBe(toolsBefore);
    const spans = runner.spansOf(answered.traceIds);
    // The answering call: its loop and one turn.
    expect(kinds(spans)).toEqual(['loop', 'think']);
    // Its root links to the paused call, and the graph ties the answer to the call it answers.
    const pausedRoot = rootOf(paused, traceIds[0]);
    expect(linksOf(rootOf(spans, answered.traceIds[0]), ANSWERS_LINK_VALUE)).toEqual([`${pausedRoot.traceId}:${pausedRoot.spanId}`]);
    const graph = buildRunGraph([...paused, ...spans], runtimes);
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, responds: 1, interrupts: 1, finishReason: 'done' });
    expect(graph.generates[1].resume).toMatchObject({ answersGenerateId: graph.generates[0].id, evidence: 'link', resolutions: [{ kind: 'respond', output: true }] });
    expect(graph.generates[0].turns[1].toolCalls[1].resolvedBy).toHaveLength(1);
    recorded.answered = spans;
  });

  it('replays the recorded run and its answer through the generic replay path: requests compared, no tool run', async () => {
    const spans = [...recorded.paused!, ...recorded.answered!];
    expect(readReplayable(spans, runtimes).runtime).toBe('toy-loop');
    const file = path.join(scratch, 'toy-run.json');
    await writeFile(file, JSON.stringify(encodeOtlpJson(spans)));
    const toolsBefore = toyToolExecutions();
    const result = await runner.request({ type: 'replay', recording: { savedFile: file }, liveTools: false, mode: 'strict' });
    expect(result.failure).toBeUndefined();
    expect(result.report).toMatchObject({ matched: true, divergences: [], spanCount: 9 });
    expect(result.report!.steps.map((step) => ({ matched: step.matched, modelCalls: step.modelCalls, toolCalls: step.toolCalls, replayed: step.replayed?.kind }))).toEqual([
      { matched: true, modelCalls: { recorded: 2, replayed: 2 }, toolCalls: { recorded: 3, replayed: 3 }, replayed: 'interrupted' },
      { matched: true, modelCalls: { recorded: 1, replayed: 1 }, toolCalls: { recorded: 0, replayed: 0 }, replayed: 'finished' },
    ]);
    // Tools were played back from the recording: not one tool function ran.
    expect(toyToolExecutions()).toBe(toolsBefore);
    const replayed = runner.spansOf(result.traceIds);
    expect(replayed).toHaveLength(9);
    const [first, second] = result.traceIds.map((traceId) => rootOf(replayed, traceId));
    // Each replayed call names the call it replays; the replayed answer answers the replayed pause.
    expect([first, second].map((root) => linksOf(root, REPLAYS_LINK_VALUE))).toEqual([recorded.paused!, recorded.answered!].map((part) => [`${part[0].traceId}:${rootOf(part, part[0].traceId).spanId}`]));
    expect(linksOf(second, ANSWERS_LINK_VALUE)).toEqual([`${first.traceId}:${first.spanId}`]);
  });

  it('compares every request with the recorded one: a recording whose tool said something else diverges at the next model request', async () => {
    // The recorded lookup said 30 mm: played back, it reaches the second turn's request, which was recorded with 3 mm.
    const tampered = [...recorded.paused!, ...recorded.answered!].map((span) => (span.attributes['toy.tool'] === 'lookup' ? { ...span, attributes: { ...span.attributes, 'toy.output': '{"mm":30}' } } : span));
    const file = path.join(scratch, 'toy-tampered.json');
    await writeFile(file, JSON.stringify(encodeOtlpJson(tampered)));
    const toolsBefore = toyToolExecutions();
    const result = await runner.request({ type: 'replay', recording: { savedFile: file }, liveTools: false, mode: 'strict' });
    expect(result.report).toMatchObject({ matched: false, stoppedAtStep: 0 });
    expect(result.report!.divergences[0]).toMatchObject({ kind: 'model-request', call: 'model call 2', recorded: 3, replayed: 30 });
    expect(result.report!.divergences[0].field).toMatch(/^messages\[2\]\.results\[0\]\.output\.mm$/);
    expect(toyToolExecutions()).toBe(toolsBefore);
  });
});

describe('the same calls without the registration', () => {
  it('fail, saying the runtime or its spans are not known', async () => {
    const paused = recorded.paused!;
    const spans = [...paused, ...recorded.answered!];
    const context = resumeContextFrom(paused, runtimes);
    const request = answerOf(true, [paused[0].traceId]);
    // Reading: nothing of the toy is read without its dialect.
    expect(buildRunGraph(spans).summary).toMatchObject({ generates: 0, modelCalls: 0, toolCalls: 0 });
    expect(() => resumeContextFrom(paused)).toThrow('These spans hold no interrupted generate to resume (7 of their 7 spans are read by no registered runtime).');
    // Answering: the rules and the target of a call the toy recorded.
    expect(() => validateResume({ context, respond: request.respond })).toThrow(/^Unknown runtime "toy-loop": no registered runtime has that id \(registered: genkit-go, genkit-js, ai-sdk, /);
    expect(() => resumeTargetOf({ facts: runner.facts(), context, request })).toThrow(/^Unknown runtime "toy-loop"/);
    // Replaying.
    expect(() => readReplayable(spans)).toThrow('These spans hold no call of a registered runtime to replay: 9 of their 9 spans are read by no registered runtime.');
    // Running: a runner with the registry's engines only plays no toy scenario and replays no toy recording.
    const plain = new RunnerHere(nodeRunnerOptions(REGISTERED_RUNTIMES));
    try {
      const run = await plain.request({ type: 'generate', scenario: 'toy-weather' });
      expect(run.failure).toEqual({ message: 'No runtime in this runner plays scenario "toy-weather".', status: 'NOT_FOUND' });
      const file = path.join(scratch, 'toy-unregistered.json');
      await writeFile(file, JSON.stringify(encodeOtlpJson(spans)));
      const replay = await plain.request({ type: 'replay', recording: { savedFile: file }, liveTools: false, mode: 'strict' });
      expect(replay.failure).toEqual({ message: 'These spans hold no call of a registered runtime to replay: 9 of their 9 spans are read by no registered runtime.', status: 'FAILED_PRECONDITION' });
    } finally {
      await plain.shutdown();
    }
  });
});
