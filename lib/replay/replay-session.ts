/**
 * The bookkeeping of one replay, free of any runtime: which recorded call answers the next
 * incoming one, what differs, and the divergences found so far. The replay model and the
 * tool stubs (run-replay.ts for genkit, lib/runtimes/ai-sdk/replay/replay-ai-sdk.ts for the AI SDK) ask
 * it for answers; it never throws except to stop a strict replay.
 */
import { spanKey } from '../spans/span';
import { jsonCopy } from '../spans/json-value';
import { firstDifference } from './first-difference';
import type { RecordedToolExecution, RecordedToolOutcome, SpanRef } from '../loop/recorded-calls';
import type { Divergence, ReplayMode, ReplayReport, ReplayStepResult } from './replay-report';

/** A recorded model call as the session compares and answers it (genkit's and the AI SDK's recordings both are). */
export interface SessionModelCall extends SpanRef {
  ordinal: number;
  /** What the model was sent, field by field (`messages`, `tools`, …). */
  readonly request: Record<string, unknown>;
  /** The request as recorded (JSON text): a replayed request that serialises the same is equal without parsing. */
  rawRequest?: string;
  response?: object;
  errorMessage?: string;
}

/** One step of a recorded chain as the session plays it (a call with its model calls, or a tool run on its own). */
export interface SessionStep {
  index: number;
  label: string;
  kind: 'generate' | 'tool';
  modelCalls?: readonly SessionModelCall[];
  toolExecutions: readonly RecordedToolExecution[];
}

/** Thrown into genkit to end a strict replay at its first divergence. */
export class ReplayStopped extends Error {
  readonly replayStopped = true;
  constructor(readonly divergence: Divergence) {
    super(`Replay stopped at the first divergence: ${divergence.message}`);
    this.name = 'ReplayStopped';
  }
}

/** Fork: answers to put in place of recorded ones, by the recorded span (`traceId:spanId`). */
export interface ReplayOverrides {
  modelResponses?: Map<string, Record<string, unknown>>;
  toolOutcomes?: Map<string, RecordedToolOutcome>;
}

/** The request fields a model call is compared on (not latency, not usage). */
const COMPARED_REQUEST_FIELDS = ['messages', 'tools', 'config', 'output', 'toolChoice', 'docs'] as const;


function requestLabel(name: string, input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return `${name}(${text.length > 60 ? `${text.slice(0, 57)}…` : text})`;
}

export class ReplaySession {
  readonly divergences: Divergence[] = [];
  stopped?: Divergence;
  #step?: SessionStep;
  #modelCursor = 0;
  #toolQueues = new Map<string, RecordedToolExecution[]>();
  #toolsReplayed = 0;
  #modelsReplayed = 0;
  #stepDiverged = false;

  constructor(
    readonly mode: ReplayMode,
    readonly overrides: ReplayOverrides = {},
  ) {}

  beginStep(step: SessionStep): void {
    this.#step = step;
    this.#modelCursor = 0;
    this.#toolsReplayed = 0;
    this.#modelsReplayed = 0;
    this.#stepDiverged = false;
    this.#toolQueues = new Map();
    for (const execution of step.toolExecutions) {
      const queue = this.#toolQueues.get(execution.name) ?? [];
      queue.push(execution);
      this.#toolQueues.set(execution.name, queue);
    }
  }

  get counts() {
    return { models: this.#modelsReplayed, tools: this.#toolsReplayed };
  }

  get stepDiverged(): boolean {
    return this.#stepDiverged;
  }

  /** Records a divergence of the current step (`step` and `stepLabel` are filled in); a strict replay stops at the first. */
  diverge(found: Omit<Divergence, 'step' | 'stepLabel'>): Divergence {
    const step = this.#step!;
    const { kind, call, field, recorded, replayed, message, ...spans } = found;
    const divergence: Divergence = { step: step.index, stepLabel: step.label, kind, call, field, recorded, replayed, message, ...spans };
    this.divergences.push(divergence);
    this.#stepDiverged = true;
    if (this.mode === 'strict' && !this.stopped) this.stopped = divergence;
    return divergence;
  }

  #stopIfStrict(divergence: Divergence): void {
    if (this.mode === 'strict') throw new ReplayStopped(divergence);
  }

  /**
   * The recorded answer to the next model call of the step, after comparing the request with
   * the recorded one. Throws ReplayStopped (strict) or when the recording has no such call.
   */
  answerModel(request: unknown, replayedSpan?: SpanRef): Record<string, unknown> {
    const step = this.#step!;
    const modelCalls = step.modelCalls ?? [];
    const recorded: SessionModelCall | undefined = modelCalls[this.#modelCursor];
    this.#modelCursor += 1;
    this.#modelsReplayed += 1;
    const call = `model call ${this.#modelCursor}`;
    if (!recorded) {
      const divergence = this.diverge({
        kind: 'model-extra-call',
        call,
        field: '(call)',
        recorded: '(missing)',
        replayed: jsonCopy(request),
        message: `The replay called the model a ${this.#modelCursor}${ordinalSuffix(this.#modelCursor)} time; the recording has only ${modelCalls.length} model call(s) in ${step.label}.`,
        replayedSpan,
      });
      throw new ReplayStopped(divergence);
    }
    const incoming = request as Record<string, unknown>;
    // Fast path: a replayed request serialises exactly as the recorded one (genkit wrote it the same way).
    const same = recorded.rawRequest !== undefined && JSON.stringify(incoming) === recorded.rawRequest;
    for (const field of same ? [] : COMPARED_REQUEST_FIELDS) {
      // An absent config and an empty one are the same request (the reflection API sends none).
      const normalize = (value: unknown) => (field === 'config' && value === undefined ? {} : value);
      const difference = firstDifference({ recorded: normalize(recorded.request[field]), replayed: normalize(incoming[field]), path: field });
      if (!difference) continue;
      const divergence = this.diverge({
        kind: 'model-request',
        call,
        field: difference.path,
        recorded: difference.recorded,
        replayed: difference.replayed,
        message: `${step.label}, ${call}: the request the model received differs from the recorded one at ${difference.path}.`,
        recordedSpan: { traceId: recorded.traceId, spanId: recorded.spanId },
        replayedSpan,
      });
      this.#stopIfStrict(divergence);
      break;
    }
    const override = this.overrides.modelResponses?.get(spanKey(recorded));
    if (override) return jsonCopy(override);
    if (recorded.errorMessage !== undefined) throw new Error(recorded.errorMessage);
    const { latencyMs: _latency, ...response } = jsonCopy((recorded.response ?? {}) as Record<string, unknown>);
    return response;
  }

  /**
   * The recorded execution that answers a tool call: the next one of that tool with an equal
   * input, else the next one of that tool (an input divergence). Undefined when the recording
   * ran that tool fewer times (a divergence; strict replays stop).
   */
  takeTool({ name, input, replayedSpan }: { name: string; input: unknown; replayedSpan?: SpanRef }): RecordedToolExecution | undefined {
    this.#toolsReplayed += 1;
    const queue = this.#toolQueues.get(name) ?? [];
    const incoming = jsonCopy(input);
    const equal = queue.findIndex((execution) => firstDifference({ recorded: execution.input, replayed: incoming }) === undefined);
    const position = equal >= 0 ? equal : 0;
    const recorded = queue[position];
    const call = `tool ${name}`;
    if (!recorded) {
      const divergence = this.diverge({
        kind: 'tool-extra-call',
        call,
        field: '(call)',
        recorded: '(missing)',
        replayed: incoming,
        message: `${this.#step!.label}: the replay ran ${requestLabel(name, incoming)}, which the recording never ran${queue.length === 0 ? '' : ' again'}.`,
        replayedSpan,
      });
      throw new ReplayStopped(divergence);
    }
    queue.splice(position, 1);
    if (equal < 0) {
      const difference = firstDifference({ recorded: recorded.input, replayed: incoming, path: 'input' })!;
      const divergence = this.diverge({
        kind: 'tool-input',
        call,
        field: difference.path,
        recorded: difference.recorded,
        replayed: difference.replayed,
        message: `${this.#step!.label}: ${name} was called with a different input than recorded (${difference.path}).`,
        recordedSpan: { traceId: recorded.traceId, spanId: recorded.spanId },
        replayedSpan,
      });
      this.#stopIfStrict(divergence);
    }
    return recorded;
  }

  /** A fork's replacement for a recorded execution, if any (live tools then do not run it). */
  overrideOf(recorded: RecordedToolExecution): RecordedToolOutcome | undefined {
    const override = this.overrides.toolOutcomes?.get(spanKey(recorded));
    return override === undefined ? undefined : jsonCopy(override);
  }

  /** The outcome a stub plays back for a recorded execution (a fork may replace it). */
  outcomeOf(recorded: RecordedToolExecution): RecordedToolOutcome {
    return jsonCopy(this.overrides.toolOutcomes?.get(spanKey(recorded)) ?? recorded.outcome);
  }

  /** Live tools: compares what the tool did with the recording. */
  compareToolOutcome({ recorded, actual, replayedSpan }: { recorded: RecordedToolExecution; actual: RecordedToolOutcome; replayedSpan?: SpanRef }): void {
    const expected = this.outcomeOf(recorded);
    const call = `tool ${recorded.name}`;
    const spans = { recordedSpan: { traceId: recorded.traceId, spanId: recorded.spanId }, replayedSpan };
    if (expected.kind !== actual.kind) {
      const divergence = this.diverge({
        kind: 'tool-outcome',
        call,
        field: 'outcome',
        recorded: describeToolOutcome(expected),
        replayed: describeToolOutcome(actual),
        message: `${this.#step!.label}: ${recorded.name} ${describeToolOutcome(actual)}, but in the recording it ${describeToolOutcome(expected)}.`,
        ...spans,
      });
      this.#stopIfStrict(divergence);
      return;
    }
    const [a, b, field] =
      expected.kind === 'output' ? [expected.output, (actual as typeof expected).output, 'output'] :
      expected.kind === 'interrupt' ? [expected.metadata, (actual as typeof expected).metadata, 'interrupt'] :
      [expected.message, (actual as typeof expected).message, 'error'];
    const difference = firstDifference({ recorded: a, replayed: b, path: field });
    if (!difference) return;
    const divergence = this.diverge({
      kind: 'tool-outcome',
      call,
      field: difference.path,
      recorded: difference.recorded,
      replayed: difference.replayed,
      message: `${this.#step!.label}: ${recorded.name} returned something else than recorded (${difference.path}).`,
      ...spans,
    });
    this.#stopIfStrict(divergence);
  }

  /** At the end of a step: recorded calls the replay never made. */
  finishStep(): void {
    const step = this.#step!;
    if (this.stopped) return;
    if (step.kind === 'generate') {
      const missing = step.modelCalls?.[this.#modelCursor];
      if (missing) {
        this.diverge({
          kind: 'model-missing-call',
          call: `model call ${missing.ordinal}`,
          field: '(call)',
          recorded: 'a model call',
          replayed: '(missing)',
          message: `${step.label}: the recording made ${step.modelCalls?.length ?? 0} model call(s); the replay made ${this.#modelCursor}.`,
          recordedSpan: { traceId: missing.traceId, spanId: missing.spanId },
        });
        return;
      }
    }
    for (const queue of this.#toolQueues.values()) {
      const missing = queue[0];
      if (!missing) continue;
      this.diverge({
        kind: 'tool-missing-call',
        call: `tool ${missing.name}`,
        field: '(call)',
        recorded: missing.input,
        replayed: '(missing)',
        message: `${step.label}: the recording ran ${requestLabel(missing.name, missing.input)}; the replay did not.`,
        recordedSpan: { traceId: missing.traceId, spanId: missing.spanId },
      });
      return;
    }
  }
}

function ordinalSuffix(n: number): string {
  return n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
}

export function describeToolOutcome(outcome: RecordedToolOutcome): string {
  if (outcome.kind === 'interrupt') return 'interrupted';
  if (outcome.kind === 'error') return `threw "${outcome.message}"`;
  return 'returned an output';
}

/** The report of a finished replay, either runtime's: matched when no step diverged; where a strict replay stopped. */
export function replayReport(options: { session: ReplaySession; mode: ReplayMode; liveTools: boolean; steps: ReplayStepResult[]; startedAt: number; spanCount: number }): ReplayReport {
  const { session, mode } = options;
  const stoppedAtStep = session.stopped?.step;
  return {
    matched: session.divergences.length === 0,
    mode,
    liveTools: options.liveTools,
    steps: options.steps,
    divergences: session.divergences,
    ...(stoppedAtStep !== undefined && mode === 'strict' ? { stoppedAtStep } : {}),
    durationMs: performance.now() - options.startedAt,
    spanCount: options.spanCount,
  };
}
