/**
 * A made-up runtime for testing the seams (lib/runtimes/toy/): its spans say `toy.kind` = `loop` |
 * `think` | `tool`, a tool's name is `toy.tool`, its outcome `toy.result` (`ok`, `paused`,
 * `failed`); toy-words.ts has the rest. Everything this runtime means lives in its one folder:
 * this dialect reads it, its driver (../driver.ts) runs, answers and replays it, and a test
 * registers both in one line (`withRuntime(toyRuntime)`, ../registration.ts).
 */
import { spanKey, type Span } from '../../../spans/span';
import type { SpanClassification } from '../../../spans/span-classification';
import type { GenerateCall, Resolution, ToolCall, ToolRequestData, Turn } from '../../../loop/loop-model';
import type { ReadCall, RuntimeDialect } from '../../../loop/runtime-dialect';
import { enclosingCall, type SpanIndex } from '../../../loop/span-index';
import { nanosToMillis } from '../../../spans/span';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { canonicalJson } from '../../../spans/json-value';
import { interruptedGenerateKey, resumeGenerateKey } from '../../../spans/trace-link-keys';
import { TOY_DIALECT_ID } from './dialect-id';
import { toyResumeRules } from './resume-rules';
import { requestName, TOY, waitingRequests, type ToyAnswer, type ToyMessage, type ToyReply } from './toy-words';

const kindOf = (span: Span) => span.attributes[TOY.kind];

/** A JSON attribute parsed, or its raw value when it is not JSON (the hand-written fixture's values are). */
const valueOf = (span: Span, key: string) => {
  const raw = span.attributes[key];
  return jsonAttributeOrUndefined(raw) ?? raw;
};

function classify(span: Span): SpanClassification {
  const kind = kindOf(span);
  const result = span.attributes[TOY.result];
  const role = kind === 'loop' ? 'generate' : kind === 'think' ? 'model' : kind === 'tool' ? 'tool' : 'other';
  const outcome = span.endTimeUnixNano === undefined ? 'running' : result === 'paused' ? 'interrupted' : result === 'failed' ? 'error' : 'ok';
  return {
    role,
    label: String(span.attributes[TOY.tool] ?? span.attributes[TOY.model] ?? span.name),
    outcome,
    restarted: false,
    errorMessage: outcome === 'error' ? String(span.attributes[TOY.error] ?? 'failed') : undefined,
  };
}

function toolCall(index: SpanIndex, span: Span): ToolCall {
  const classification = index.classify(span);
  const ref = span.attributes[TOY.ref];
  return {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    name: classification.label,
    ...(typeof ref === 'string' ? { ref } : {}),
    input: valueOf(span, TOY.input),
    output: valueOf(span, TOY.output),
    status: classification.outcome,
    restarted: false,
    parked: false,
    errorMessage: classification.errorMessage,
    resolvedBy: [],
    ...(classification.outcome === 'interrupted' ? { interrupt: { metadata: true, evidence: 'attribute' as const } } : {}),
  };
}

/** What ties a pause to its answer: the calls waiting, by name, ref and input, in any order. */
const requestsKey = (requests: readonly ToolRequestData[]) => canonicalJson(requests.map((request) => requestName(request) + canonicalJson(request.input)).sort());

/** An answering loop's answers (its `toy.answers`), as resolutions of the calls its history left waiting. */
function resolutionsOf(options: { root: Span; callId: string }): { resolutions: Resolution[]; waiting: ToolRequestData[] } | undefined {
  const answers = jsonAttributeOrUndefined(options.root.attributes[TOY.answers]);
  if (!Array.isArray(answers)) return undefined;
  const history = jsonAttributeOrUndefined(options.root.attributes[TOY.input]);
  const waiting = Array.isArray(history) ? waitingRequests(history as ToyMessage[]) : [];
  const resolutions = (answers as ToyAnswer[]).map((answer): Resolution => {
    const request = waiting.find((candidate) => candidate.name === answer.name && (answer.ref === undefined || candidate.ref === answer.ref)) ?? { name: answer.name, ref: answer.ref };
    return { id: `${options.callId}:answer:${requestName(request)}`, kind: 'respond', request, output: answer.output };
  });
  return { resolutions, waiting };
}

/** A toy loop: its children in start order, a `think` span opening each turn, the tools after it belonging to it. */
function readCall(options: { index: SpanIndex; root: Span; flowSpanId?: string }): ReadCall {
  const { index, root } = options;
  const turns: Turn[] = [];
  for (const child of index.childrenOf(root)) {
    const classification = index.classify(child);
    if (classification.role === 'model') {
      const reply = valueOf(child, TOY.output) as ToyReply | undefined;
      turns.push({
        index: turns.length,
        generateSpanId: root.spanId,
        model: {
          id: spanKey(child),
          traceId: child.traceId,
          spanId: child.spanId,
          model: classification.label,
          status: classification.outcome === 'error' ? 'error' : 'ok',
          // The requests the model made (its reply), when the turn recorded it; else the tools that ran.
          toolRequests: Array.isArray(reply?.requests) ? reply.requests.map((request) => ({ name: request.name, ref: request.ref, input: request.input })) : [],
          text: child.attributes[TOY.text] as string | undefined,
        },
        toolCalls: [],
      });
    } else if (classification.role === 'tool' && turns.length > 0) turns[turns.length - 1].toolCalls.push(toolCall(index, child));
  }
  for (const turn of turns) {
    if (turn.model && turn.model.toolRequests.length === 0) turn.model.toolRequests = turn.toolCalls.map((call) => ({ name: call.name, input: call.input }));
  }
  const outcome = index.classify(root).outcome;
  const pausedCalls = turns.at(-1)?.toolCalls.filter((call) => call.status === 'interrupted') ?? [];
  const status: GenerateCall['status'] = outcome === 'running' ? 'running' : outcome === 'error' ? 'error' : pausedCalls.length > 0 ? 'interrupted' : 'ok';
  const last = turns[turns.length - 1]?.model;
  const id = spanKey(root);
  const answered = resolutionsOf({ root, callId: id });
  const model = root.attributes[TOY.model];
  const call: GenerateCall = {
    id,
    traceId: root.traceId,
    spanId: root.spanId,
    startTime: nanosToMillis(root.startTimeUnixNano),
    endTime: root.endTimeUnixNano ? nanosToMillis(root.endTimeUnixNano) : undefined,
    status,
    finishReason: status === 'ok' ? 'done' : status === 'interrupted' ? 'paused' : undefined,
    errorMessage: status === 'error' ? index.classify(root).errorMessage : undefined,
    model: typeof model === 'string' ? model : last?.model,
    turns,
    resumeToolCalls: [],
    ...(answered ? { resume: { resolutions: answered.resolutions } } : {}),
    pendingInterrupts: pausedCalls.map((paused) => ({ name: paused.name, ref: paused.ref, input: paused.input })),
    text: status === 'ok' ? last?.text : undefined,
    notes: [],
  };
  return {
    call,
    ...(status === 'interrupted' ? { interrupted: interruptedGenerateKey({ call, root, requests: requestsKey(call.pendingInterrupts) }) } : {}),
    ...(answered ? { resume: resumeGenerateKey({ call, root, requests: requestsKey(answered.waiting) }) } : {}),
  };
}

export const toyLoop: RuntimeDialect = {
  id: TOY_DIALECT_ID,
  title: 'Toy loop',
  explains: {
    pause: 'The toy loop waits for an answer here.',
    resolutions: { respond: 'Answered', restart: 'Ran again', pending: 'Reused', unresolved: 'Left unanswered' },
    sendSpans: 'The toy loop writes its spans by hand.',
  },
  claimedBy: { attributes: [TOY.kind] },
  claims: (span) => kindOf(span) !== undefined,
  classify,
  enclosedByCall: (index, span) => enclosingCall(index, span).call !== undefined,
  readCall,
  readStandaloneTool: toolCall,
  spanValues: (span) => ({ input: span.attributes[TOY.input], output: span.attributes[TOY.output], attributeKeys: [TOY.input, TOY.output] }),
  resume: toyResumeRules,
  runningTool: (span) => (kindOf(span) === 'tool' ? { name: String(span.attributes[TOY.tool] ?? span.name) } : undefined),
  // The toy loop says how a step ended in `toy.result`, why it failed in `toy.error`.
  closeOpenSpan: (_span, ending) => ({ attributes: { [TOY.result]: 'failed', [TOY.error]: ending.message }, status: { code: 2, message: ending.message } }),
};
