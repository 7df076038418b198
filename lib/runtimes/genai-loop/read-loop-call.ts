/**
 * One top-level call of a GenAI-loop framework (an agent run: ADK's `invoke_agent`, a LangGraph
 * graph run, a generic app's `invoke_agent`) in the loop model: its model calls in order (the
 * tools each asked for paired with the tool spans that ran them — by call id, else by name and
 * arguments), the tools an answering call ran before its first model call, its pauses in the
 * framework's words, the answers it gives an earlier run, and its link keys. What each framework
 * records where is its flavor (loop-flavor.ts); the reading is the same for all.
 */
import { compareNanos, spanKey, type Span } from '../../spans/span';
import { newGenerateCall } from '../../loop/new-generate-call';
import { genAiCallFields } from '../otel-genai/read/genai-call-fields';
import type { GenerateCall, ModelCall, ToolCall, ToolRequestData, Turn } from '../../loop/loop-model';
import type { ReadCall } from '../../loop/runtime-dialect';
import type { SpanIndex } from '../../loop/span-index';
import { messageText, toolCallParts, toolResponsesById, type GenAiMessage } from '../otel-genai/read/genai-messages';
import { answeredMessage, readLoopAnswers } from './loop-answers';
import type { CallPause, LoopFlavor, LoopMessages, LoopTool } from './loop-flavor';
import { loopCallMessages } from './loop-call-messages';
import { loopInterruptedKey, loopResumeKey } from './loop-link-keys';
import { loopToolCall, loopToolCallWithoutSpan, pairToolSpans } from './loop-tool-calls';

/** A requested tool that was not among the tools the model was offered (the conventions' `gen_ai.tool.definitions`). */
const NOT_OFFERED = { code: 'not-offered', words: 'never ran — not among the tools the model was offered' } as const;

export interface LoopStep {
  span: Span;
  view: LoopMessages;
  requests: ToolRequestData[];
}

/** The model, tool and other spans of a call — not those of a call nested in it, nor those inside a tool (a tool that wraps a tool). */
export function spansOfLoopCall(index: SpanIndex, root: Span): { models: Span[]; tools: Span[]; others: Span[] } {
  const models: Span[] = [];
  const tools: Span[] = [];
  const others: Span[] = [];
  const seen = new Set<Span>([root]);
  const stack = [...index.childrenOf(root)];
  while (stack.length > 0) {
    const span = stack.pop() as Span;
    if (seen.has(span)) continue;
    seen.add(span);
    const role = index.classify(span).role;
    if (role === 'generate') continue;
    if (role === 'tool') {
      tools.push(span);
      continue;
    }
    if (role === 'model') models.push(span);
    else others.push(span);
    stack.push(...index.childrenOf(span));
  }
  return { models, tools, others };
}

function requestsOf(messages: readonly GenAiMessage[]): ToolRequestData[] {
  return messages.flatMap(toolCallParts).map((part) => ({ name: part.name ?? 'unknown tool', ...(part.id !== undefined ? { ref: part.id } : {}), input: part.arguments }));
}

/**
 * Model calls in loop order: by start time, a later step (more history sent) after an earlier
 * one at the same instant. `index`: the build's, given to the flavor's `messagesOf`.
 */
export function orderedLoopSteps(options: { flavor: LoopFlavor; models: readonly Span[]; index?: SpanIndex }): LoopStep[] {
  const { flavor, models, index } = options;
  const steps: LoopStep[] = [];
  for (const span of models) {
    const view = flavor.messagesOf(span, index);
    steps.push({ span, view, requests: requestsOf(view.output.messages) });
  }
  return steps.sort((a, b) => compareNanos(a.span.startTimeUnixNano, b.span.startTimeUnixNano) || a.view.input.messages.length - b.view.input.messages.length);
}

function modelCallOf(options: { flavor: LoopFlavor; index: SpanIndex; step: LoopStep }): ModelCall {
  const { flavor, step } = options;
  const classification = options.index.classify(step.span);
  return {
    id: spanKey(step.span),
    traceId: step.span.traceId,
    spanId: step.span.spanId,
    model: flavor.modelNameOf?.(step) ?? classification.label,
    status: classification.outcome === 'running' ? 'running' : classification.outcome === 'error' ? 'error' : 'ok',
    toolRequests: step.requests,
    text: messageText(step.view.output.messages.at(-1)),
    finishReason: step.view.finishReasons[0],
    errorMessage: classification.errorMessage,
  };
}

/** The pause recorded elsewhere in the call that holds a request no tool span ran, if any. */
function pauseOfRequest(options: { pauses: CallPause[]; request: ToolRequestData; onlyRequest: boolean }): CallPause | undefined {
  const { pauses, request } = options;
  let at = request.ref === undefined ? -1 : pauses.findIndex((pause) => pause.callId === request.ref);
  // A pause that names no call holds the one request left without a span, when there is one.
  if (at < 0 && options.onlyRequest) at = pauses.findIndex((pause) => pause.callId === undefined);
  return at < 0 ? undefined : pauses.splice(at, 1)[0];
}

/** Reads one top-level call of a GenAI-loop framework — its steps, tool calls, pauses, answers and link keys — from its span. */
export function readLoopCall(flavor: LoopFlavor, options: { index: SpanIndex; root: Span; flowSpanId?: string }): ReadCall {
  const { index, root, flowSpanId } = options;
  const id = spanKey(root);
  const classification = index.classify(root);
  // The call's messages, read once in the build (its classification may have read them): the hooks are given them.
  const callView = loopCallMessages({ flavor, span: root, index, last: true });
  const { models, tools, others } = spansOfLoopCall(index, root);
  // The flavor reads each model call with the index (a framework may keep its data on child spans).
  const steps = orderedLoopSteps({ flavor, models, index });
  const notes: string[] = [];
  for (const [what, read] of [
    ['input', callView.input],
    ['output', callView.output],
  ] as const) {
    if (read.problem) notes.push(`This call's recorded ${what} could not be read: ${read.problem}.`);
  }
  for (const step of steps) {
    if (step.view.input.problem) notes.push(`The history of model call ${step.span.spanId} could not be read: ${step.view.input.problem}.`);
    if (step.view.output.problem) notes.push(`The answer of model call ${step.span.spanId} could not be read: ${step.view.output.problem}.`);
  }

  // Each tool span goes to the step that asked for its call id; one no step asked for goes to
  // the latest step started before it, or — started before the first step — is a paused call
  // this call runs again (an answering call runs its answered tools before its first model call).
  const toolOf = new Map<Span, LoopTool>(tools.map((span) => [span, flavor.toolOf(span, index)]));
  const stepOfCallId = new Map<string, number>();
  steps.forEach((step, position) => {
    for (const request of step.requests) if (request.ref !== undefined && !stepOfCallId.has(request.ref)) stepOfCallId.set(request.ref, position);
  });
  const spansOfStep: Span[][] = steps.map(() => []);
  const beforeFirstStep: Span[] = [];
  for (const span of [...tools].sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano))) {
    const callId = toolOf.get(span)?.callId;
    const asked = callId === undefined ? undefined : stepOfCallId.get(callId);
    if (asked !== undefined && compareNanos(steps[asked].span.startTimeUnixNano, span.startTimeUnixNano) <= 0) {
      spansOfStep[asked].push(span);
      continue;
    }
    const latest = steps.findLastIndex((step) => compareNanos(step.span.startTimeUnixNano, span.startTimeUnixNano) <= 0);
    if (latest < 0) beforeFirstStep.push(span);
    else spansOfStep[latest].push(span);
  }

  const running = classification.outcome === 'running';
  const failed = root.status.code === 2;
  const callPauses = flavor.pausesOfCall?.({ index, root, spans: others, view: callView }) ?? [];
  const turns: Turn[] = steps.map((step, position) => {
    const turnId = spanKey(step.span);
    const loopWentOn = position < steps.length - 1;
    const { paired, unpaired } = pairToolSpans({ requests: step.requests, spans: spansOfStep[position], tools: toolOf });
    const withoutSpan = paired.filter((span) => span === undefined).length;
    // The results the next model call was sent, for calls answered inside the run without a tool span (when the flavor has words
    // for them): looked up only for such a call — the next call's history is the whole conversation, and every turn has a next.
    let answeredInRun: Map<string, unknown> | undefined;
    const toolCalls: ToolCall[] = step.requests.map((request, at) => {
      const span = paired[at];
      if (span) return loopToolCall({ flavor, index, span, request, loopWentOn, tool: toolOf.get(span), callView });
      const pause = pauseOfRequest({ pauses: callPauses, request, onlyRequest: withoutSpan === 1 });
      if (!pause && flavor.words.answeredInRun && loopWentOn && request.ref !== undefined) {
        answeredInRun ??= toolResponsesById(steps[position + 1].view.input.messages);
        if (answeredInRun.has(request.ref)) {
          const call = loopToolCallWithoutSpan({ flavor, turnId, traceId: root.traceId, request, failed });
          return { ...call, output: answeredInRun.get(request.ref), runtimeState: flavor.words.answeredInRun, loopWentOn: true };
        }
      }
      // A tool the model was not offered (the offered tools are recorded and it is not among them) never ran: no pause.
      if (!pause && step.view.tools !== undefined && !step.view.tools.has(request.name)) {
        return { ...loopToolCallWithoutSpan({ flavor, turnId, traceId: root.traceId, request, failed }), runtimeState: NOT_OFFERED };
      }
      // Asked for in the last model call of a call that ended without failing, and nothing ran it: it waits.
      const waiting = !loopWentOn && !running && !failed ? flavor.words.notExecuted : undefined;
      return loopToolCallWithoutSpan({ flavor, turnId, traceId: root.traceId, request, pause: pause ?? waiting, failed });
    });
    for (const span of unpaired) toolCalls.push(loopToolCall({ flavor, index, span, loopWentOn, tool: toolOf.get(span), callView }));
    return { index: position, generateSpanId: root.spanId, model: modelCallOf({ flavor, index, step }), toolCalls };
  });
  const resumeToolCalls = beforeFirstStep.map((span) => loopToolCall({ flavor, index, span, loopWentOn: steps.length > 0, tool: toolOf.get(span), callView }));
  // Pauses no request took that name the call they hold: paused calls of this run that no model call of it asked for.
  for (const pause of callPauses) {
    if (pause.request) resumeToolCalls.push(loopToolCallWithoutSpan({ flavor, turnId: id, traceId: root.traceId, request: pause.request, pause, failed }));
  }

  const paused = [...resumeToolCalls, ...turns.flatMap((turn) => turn.toolCalls)].filter((call) => call.status === 'interrupted');
  const outcome = genAiCallFields({ running, failed, paused, classification, call: callView, lastStep: steps.at(-1)?.view, turns });
  const { status } = outcome;

  // The history the call started from: its own recorded input, else its first model call's.
  const history = callView.input.messages.length > 0 ? callView.input.messages : (steps[0]?.view.input.messages ?? []);
  const answered = answeredMessage(history);
  // What the first model call was sent for the answered calls, where the call's own input records no result (the AI SDK records an approval's answer only as its own part).
  if (answered && history !== steps[0]?.view.input.messages) {
    for (const [callId, response] of toolResponsesById(steps[0]?.view.input.messages ?? [])) if (!answered.responses.has(callId)) answered.responses.set(callId, response);
  }
  const failedWith = failed ? (classification.exceptionType ?? classification.errorMessage) : undefined;
  const evidence = { index, root, generateId: id, history, answered, resumeToolCalls, tools: steps[0]?.view.tools, failedWith };
  const resolutions = flavor.readAnswers ? flavor.readAnswers(evidence) : readLoopAnswers(evidence, flavor.words);

  const call: GenerateCall = newGenerateCall({
    root,
    flowSpanId,
    read: {
      ...outcome,
      turns,
      resumeToolCalls,
      resume: resolutions ? { resolutions } : undefined,
      notes,
    },
  });
  call.notes.push(...(flavor.notesOf?.({ index, root, call, view: callView }) ?? []));

  const linkScope = flavor.linkScope?.({ index, root, models: steps.map((step) => step.span) });
  const scopes = typeof linkScope === 'string' || linkScope === undefined ? { interrupted: linkScope, answering: linkScope } : linkScope;
  // The model call whose tools paused (the last one that asked for tools): its history and answer are the paused conversation.
  const pausedStep = steps.findLast((step) => step.requests.length > 0);
  const pausedKey = pausedStep ? { ids: pausedStep.requests.flatMap((request) => (request.ref !== undefined ? [request.ref] : [])), messages: [...pausedStep.view.input.messages, ...pausedStep.view.output.messages] } : undefined;
  const silent = status === 'ok' && flavor.silentPauses === true && pausedStep !== undefined;
  const interrupted = status === 'interrupted' || silent ? loopInterruptedKey({ call, root, scope: scopes.interrupted, pausedStep: pausedKey ?? { ids: paused.flatMap((tool) => (tool.ref !== undefined ? [tool.ref] : [])), messages: [] }, silent }) : undefined;
  const answeredIds = answered ? toolCallParts(answered.assistant).flatMap((part) => (part.id !== undefined ? [part.id] : [])) : (resolutions ?? []).flatMap((resolution) => (resolution.request.ref !== undefined ? [resolution.request.ref] : []));
  const resume = resolutions ? loopResumeKey({ call, root, scope: scopes.answering, answered: { ids: answeredIds, history: answered ? history.slice(0, answered.position + 1) : [] } }) : undefined;
  return { call, ...(interrupted ? { interrupted } : {}), ...(resume ? { resume } : {}) };
}
