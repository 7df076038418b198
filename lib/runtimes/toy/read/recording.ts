/**
 * The toy loop's replayable chain, read from its spans: each call in causal order with the
 * history it was given, the answers it carried, which call it continues (the graph's linking
 * says), its model turns (request and reply, as `toy.input` / `toy.output` of each `think` span)
 * and its tool runs (a paused call is no run: the loop pauses on it again). A replay
 * (../replay/replay-toy.ts) plays it back without running a tool.
 */
import { LoopscopeError } from '../../../errors';
import type { StepOutcome } from '../../../contract/replay';
import type { RecordedToolExecution, SpanRef } from '../../../loop/recorded-calls';
import type { GenerateResume } from '../../../loop/loop-model';
import type { RecordedToolDefinition } from '../../../loop/resume-model';
import type { SpanIndex } from '../../../loop/span-index';
import { parseJsonAttribute } from '../../../spans/parse-json-attribute';
import { compareNanos, spanKey, type Span } from '../../../spans/span';
import { TOY, waitingRequests, type ToyAnswer, type ToyMessage, type ToyReply } from './toy-words';

/** One recorded model turn, as the replay's session compares and answers it. */
export interface ToyRecordedTurn extends SpanRef {
  ordinal: number;
  request: Record<string, unknown>;
  /** The request as recorded: a replayed request that serialises the same is equal without parsing. */
  rawRequest: string;
  response?: object;
  errorMessage?: string;
}

/** One call of the chain. */
export interface ToyRecordedCall extends SpanRef {
  index: number;
  label: string;
  kind: 'generate';
  model: string;
  /** The tools it offered its model. */
  tools: RecordedToolDefinition[];
  /** The history it was given (for an answering call: the paused call's, the answers not yet in it). */
  messages: ToyMessage[];
  answers?: ToyAnswer[];
  /** The call (its index) whose pause this one answers. */
  continues?: number;
  modelCalls: ToyRecordedTurn[];
  toolExecutions: RecordedToolExecution[];
  outcome: StepOutcome;
}

export interface ToyRecording {
  calls: ToyRecordedCall[];
  spanCount: number;
}

/** A JSON attribute, or the reason a replay cannot use it. */
function recorded(span: Span, key: string): unknown {
  const parsed = parseJsonAttribute(span.attributes[key]);
  if (!parsed.ok) throw new LoopscopeError('FAILED_PRECONDITION', `The toy ${span.attributes[TOY.kind]} span ${spanKey(span)} did not record ${key} (${parsed.error}): it cannot be replayed.`);
  return parsed.value;
}

/** How the call ended: failed (`toy.result`), paused (its history ends with calls waiting), or with the model's text. */
function outcomeOf({ root, turns }: { root: Span; turns: readonly ToyRecordedTurn[] }): StepOutcome {
  if (root.attributes[TOY.result] === 'failed') return { kind: 'error', message: String(root.attributes[TOY.error] ?? 'failed') };
  if (waitingRequests(recorded(root, TOY.output) as ToyMessage[]).length > 0) return { kind: 'interrupted' };
  return { kind: 'finished', finishReason: 'done', message: (turns.at(-1)?.response as ToyReply | undefined)?.text ?? '' };
}

/**
 * @throws LoopscopeError FAILED_PRECONDITION when the spans hold no toy call, or a call did not
 *   record what a replay needs (its history, a turn's request or reply).
 */
export function readToyRecording(options: { index: SpanIndex; continuation: (callId: string) => GenerateResume | undefined }): ToyRecording {
  const { index } = options;
  const roots = index.spans.filter((span) => span.attributes[TOY.kind] === 'loop' && span.parentSpanId === undefined).sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  if (roots.length === 0) throw new LoopscopeError('FAILED_PRECONDITION', 'These spans hold no toy loop call to replay.');
  const positions = new Map(roots.map((root, position) => [spanKey(root), position]));
  const calls = roots.map((root, position): ToyRecordedCall => {
    const children = index.childrenOf(root);
    const modelCalls = children
      .filter((child) => child.attributes[TOY.kind] === 'think')
      .map((child, ordinal): ToyRecordedTurn => {
        const failed = child.attributes[TOY.result] === 'failed';
        return {
          ordinal: ordinal + 1,
          traceId: child.traceId,
          spanId: child.spanId,
          request: recorded(child, TOY.input) as Record<string, unknown>,
          rawRequest: String(child.attributes[TOY.input]),
          ...(failed ? { errorMessage: String(child.attributes[TOY.error] ?? 'failed') } : { response: recorded(child, TOY.output) as object }),
        };
      });
    const toolExecutions = children
      .filter((child) => child.attributes[TOY.kind] === 'tool' && child.attributes[TOY.result] !== 'paused')
      .map((child): RecordedToolExecution => ({
        traceId: child.traceId,
        spanId: child.spanId,
        name: String(child.attributes[TOY.tool]),
        input: recorded(child, TOY.input),
        restarted: false,
        outcome: child.attributes[TOY.result] === 'failed' ? { kind: 'error', message: String(child.attributes[TOY.error] ?? 'failed') } : { kind: 'output', output: recorded(child, TOY.output) },
      }));
    const messages = recorded(root, TOY.input) as ToyMessage[];
    const answers = root.attributes[TOY.answers] === undefined ? undefined : (recorded(root, TOY.answers) as ToyAnswer[]);
    const answered = options.continuation(spanKey(root))?.answersGenerateId;
    const continues = answered === undefined ? undefined : positions.get(answered);
    return {
      index: position,
      label: `toy call ${position + 1}${answers ? ' (answer)' : ''}`,
      kind: 'generate',
      traceId: root.traceId,
      spanId: root.spanId,
      model: String(root.attributes[TOY.model] ?? ''),
      tools: recorded(root, TOY.tools) as RecordedToolDefinition[],
      messages,
      ...(answers ? { answers } : {}),
      ...(continues !== undefined ? { continues } : {}),
      modelCalls,
      toolExecutions,
      outcome: outcomeOf({ root, turns: modelCalls }),
    };
  });
  return { calls, spanCount: index.spans.length };
}
