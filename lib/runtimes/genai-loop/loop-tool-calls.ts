/**
 * Tool calls of a GenAI-loop call in the loop model: from a tool span (its outcome, a pause
 * the framework records on it, a failure the framework gave the model), or from a request the
 * model made that no tool span ran (a pause recorded elsewhere, a call left waiting, a call
 * that never ran); and which tool span ran which request when the spans record no call id
 * (by name and arguments, then by name, in order).
 */
import { canonicalJson } from '../../spans/json-value';
import { spanKey, type Span } from '../../spans/span';
import type { InterruptInfo, ToolCall, ToolRequestData } from '../../loop/loop-model';
import { requestLabel } from '../../loop/loop-model';
import type { SpanIndex } from '../../loop/span-index';
import type { LoopFlavor, LoopPause, LoopTool } from './loop-flavor';

/** A pause as the loop model keeps it on a tool call. */
export function interruptOf(pause: LoopPause): InterruptInfo {
  return { metadata: pause.metadata, evidence: pause.evidence, pausedAs: pause.pausedAs, ...(pause.pauseId !== undefined ? { pauseId: pause.pauseId } : {}) };
}

/** A tool call from its span; `request` is what the model asked for, `loopWentOn`: a later model call followed. */
export function loopToolCall(options: { flavor: LoopFlavor; index: SpanIndex; span: Span; request?: ToolRequestData; loopWentOn: boolean; tool?: LoopTool }): ToolCall {
  const { flavor, index, span, request } = options;
  const classification = index.classify(span);
  const tool = options.tool ?? flavor.toolOf(span, index);
  const pause = classification.outcome === 'interrupted' ? flavor.pauseOf?.(span) : undefined;
  const call: ToolCall = {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    name: tool.name,
    ref: tool.callId ?? request?.ref,
    input: tool.input ?? request?.input,
    output: tool.output,
    // A pause is never an error, and never a tool that ran.
    status: pause ? 'interrupted' : classification.outcome === 'interrupted' ? 'ok' : classification.outcome,
    restarted: false,
    parked: false,
    errorMessage: pause ? undefined : classification.errorMessage,
    resolvedBy: [],
  };
  if (pause) call.interrupt = interruptOf(pause);
  // The framework gave the model the error as the call's result and the loop went on.
  if (call.status === 'error' && options.loopWentOn) {
    call.runtimeState = flavor.words.toolError;
    call.loopWentOn = true;
  }
  flavor.decorateTool?.({ call, span, index });
  return call;
}

/** A requested call no tool span ran: paused by evidence recorded elsewhere, left waiting, or never run. */
export function loopToolCallWithoutSpan(options: { flavor: LoopFlavor; turnId: string; traceId: string; request: ToolRequestData; pause?: LoopPause; failed: boolean }): ToolCall {
  const { flavor, request, pause } = options;
  const call: ToolCall = {
    id: `${options.turnId}:request:${requestLabel(request)}`,
    traceId: options.traceId,
    name: request.name,
    ref: request.ref,
    input: request.input,
    status: 'not-run',
    restarted: false,
    parked: false,
    resolvedBy: [],
  };
  if (pause) return { ...call, status: 'interrupted', interrupt: interruptOf(pause) };
  if (options.failed) return flavor.words.neverRan ? { ...call, runtimeState: flavor.words.neverRan } : call;
  return call;
}

/** The tool spans of a turn paired with the requests of its model call: by call id, else by name and arguments, else by name, in order. */
export function pairToolSpans(options: { requests: readonly ToolRequestData[]; spans: readonly Span[]; tools: ReadonlyMap<Span, LoopTool> }): { paired: (Span | undefined)[]; unpaired: Span[] } {
  const unused = [...options.spans];
  const toolOf = (span: Span) => options.tools.get(span) as LoopTool;
  const take = (test: (span: Span) => boolean) => {
    const at = unused.findIndex(test);
    return at < 0 ? undefined : unused.splice(at, 1)[0];
  };
  // Ids first, for every request: a span with an id never goes to a request by name.
  const paired: (Span | undefined)[] = options.requests.map((request) => (request.ref === undefined ? undefined : take((span) => toolOf(span).callId === request.ref)));
  options.requests.forEach((request, position) => {
    if (paired[position]) return;
    const withoutId = (span: Span) => toolOf(span).callId === undefined && toolOf(span).name === request.name;
    const sameInput = request.input === undefined ? undefined : canonicalJson(request.input);
    paired[position] = take((span) => withoutId(span) && sameInput !== undefined && toolOf(span).input !== undefined && canonicalJson(toolOf(span).input) === sameInput) ?? take(withoutId);
  });
  return { paired, unpaired: unused };
}
