/**
 * One AI SDK call (`invoke_agent` / `ai.generateText` / `ai.streamText`) in the loop model: its
 * model calls in order (one per step, the tools each asked for paired by tool call id), the
 * tools an answering call ran before its first step, what it left pending, and its link keys
 * (docs/interrupt-model.md, "Vercel AI SDK v7").
 */
import { compareNanos, spanKey, type Span } from '../../../spans/span';
import type { ToolCall, ToolRequestData, Turn } from '../../../loop/loop-model';
import type { ReadCall } from '../../../loop/runtime-dialect';
import type { SpanIndex } from '../../../loop/span-index';
import { TOOL_CALLS_FINISH_REASONS } from '../../otel-genai/read/genai-attributes';
import { messageText, toolCallParts, toolResponsesById, type GenAiMessage } from '../../otel-genai/read/genai-messages';
import { aiSdkInterruptedKey, aiSdkResumeKey } from './link-keys';
import { readAiSdkResolutions } from './read-resolutions';
import { toolCallFromSpan, toolCallWithoutSpan, type CallContext } from './read-tool-call';
import { STATES } from './sdk-words';
import { messagesView, toolView, type MessagesView } from './span-views';
import { newGenerateCall } from '../../../loop/new-generate-call';
import { genAiCallFields } from '../../otel-genai/read/genai-call-fields';
import { AI_SDK_STEP_MARKERS, HAND_WRITTEN_MODEL } from './loopscope-markers';

interface ModelStep {
  span: Span;
  view: MessagesView;
  requests: ToolRequestData[];
}

/** The model and tool spans of a call, not those of a call nested inside it (an agent run by a tool). */
function spansOfCall(index: SpanIndex, root: Span): { models: Span[]; tools: Span[] } {
  const models: Span[] = [];
  const tools: Span[] = [];
  const stack = [...index.childrenOf(root)];
  while (stack.length > 0) {
    const span = stack.pop() as Span;
    // Every span has one parent, so only a parent cycle in broken data (back to the root) would come round again.
    if (span === root) continue;
    const role = index.classify(span).role;
    if (role === 'generate') continue;
    if (role === 'model') models.push(span);
    else if (role === 'tool') {
      tools.push(span);
      continue;
    }
    stack.push(...index.childrenOf(span));
  }
  return { models, tools };
}

function requestsOf(messages: readonly GenAiMessage[]): ToolRequestData[] {
  return messages.flatMap(toolCallParts).map((part) => ({ name: part.name ?? 'unknown tool', ...(part.id !== undefined ? { ref: part.id } : {}), input: part.arguments }));
}

/**
 * Model calls in loop order: by start time, a later step (more history sent) after an earlier
 * one at the same instant. Each read once, with the build's index (the tools it was offered are
 * read once per build).
 */
function orderedSteps(models: Span[], index: SpanIndex): ModelStep[] {
  const steps = models.map((span) => {
    const view = messagesView(span, { index, last: true });
    return { span, view, requests: requestsOf(view.output.messages) };
  });
  return steps.sort((a, b) => compareNanos(a.span.startTimeUnixNano, b.span.startTimeUnixNano) || a.view.input.messages.length - b.view.input.messages.length);
}

/** Reads one top-level AI SDK call — its steps, tool calls, answers and link keys — from its span. */
export function readAiSdkCall(options: { index: SpanIndex; root: Span; flowSpanId?: string }): ReadCall {
  const { index, root, flowSpanId } = options;
  const id = spanKey(root);
  const classification = index.classify(root);
  // The view the call's classification read already, when it looked for a pause.
  const callView = messagesView(root, { index, last: true });
  const { models, tools } = spansOfCall(index, root);
  const steps = orderedSteps(models, index);
  const notes: string[] = [];
  for (const [what, read] of [
    ['input', callView.input],
    ['output', callView.output],
  ] as const) {
    if (read.problem) notes.push(`This call's recorded ${what} could not be read: ${read.problem}.`);
  }
  for (const [position, step] of steps.entries()) {
    if (step.view.output.problem) notes.push(`The answer of model call ${step.span.spanId} could not be read: ${step.view.output.problem}.`);
    if (step.span.attributes[AI_SDK_STEP_MARKERS.editedRequest] !== undefined) {
      notes.push(`Model call ${position + 1} was sent a request edited by hand at a pause: its recorded input is what the loop would have sent; the edited request is in ${AI_SDK_STEP_MARKERS.editedRequest}.`);
    }
  }

  // Tool spans go to the step that asked for their call id; one asked for by no step of this
  // call, started before its first step or run directly under it, is an answering call's
  // approved tool (the SDK runs it before step 1).
  const turnOfCallId = new Map<string, number>();
  steps.forEach((step, position) => {
    for (const request of step.requests) if (request.ref !== undefined && !turnOfCallId.has(request.ref)) turnOfCallId.set(request.ref, position);
  });
  const spansOfTurn: Span[][] = steps.map(() => []);
  const beforeFirstStep: Span[] = [];
  for (const span of [...tools].sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano))) {
    const callId = toolView(span).callId;
    const asked = callId === undefined ? undefined : turnOfCallId.get(callId);
    if (asked !== undefined) {
      spansOfTurn[asked].push(span);
      continue;
    }
    const latest = steps.findLastIndex((step) => compareNanos(step.span.startTimeUnixNano, span.startTimeUnixNano) <= 0);
    if (latest < 0 || index.parentOf(span) === root) beforeFirstStep.push(span);
    else spansOfTurn[latest].push(span);
  }

  const running = classification.outcome === 'running';
  const failed = root.status.code === 2;
  const lastStep = steps[steps.length - 1];
  const stoppedForTools = [...callView.finishReasons, ...(lastStep?.view.finishReasons ?? [])].some((reason) => TOOL_CALLS_FINISH_REASONS.has(reason));
  const turns: Turn[] = steps.map((step, position) => {
    const turnId = spanKey(step.span);
    const next = steps[position + 1];
    const own = toolResponsesById(step.view.output.messages);
    const seen = next ? toolResponsesById(next.view.input.messages) : new Map<string, unknown>();
    const unused = [...spansOfTurn[position]];
    const contextOf = (request: ToolRequestData): CallContext => ({
      ownResponse: request.ref !== undefined && own.has(request.ref) ? { value: own.get(request.ref) } : undefined,
      nextResponse: request.ref !== undefined && seen.has(request.ref) ? { value: seen.get(request.ref) } : undefined,
      loopWentOn: next !== undefined,
      answerFinished: step.view.finishReasons.length > 0 && !step.view.finishReasons.some((reason) => TOOL_CALLS_FINISH_REASONS.has(reason)),
      offered: step.view.tools === undefined ? undefined : (step.view.tools.get(request.name) ?? null),
    });
    const toolCalls: ToolCall[] = step.requests.map((request) => {
      let at = unused.findIndex((span) => request.ref !== undefined && toolView(span).callId === request.ref);
      if (at < 0) at = unused.findIndex((span) => toolView(span).callId === undefined && toolView(span).name === request.name);
      const context = contextOf(request);
      if (at >= 0) return toolCallFromSpan({ index, span: unused.splice(at, 1)[0], request, context });
      const pending = next === undefined && stoppedForTools && !running && !failed;
      return toolCallWithoutSpan({ turnId, traceId: root.traceId, request, context, pending });
    });
    for (const span of unused) toolCalls.push(toolCallFromSpan({ index, span, context: { loopWentOn: next !== undefined } }));
    return { index: position, generateSpanId: index.parentOf(step.span)?.spanId ?? root.spanId, model: modelCallOf(index, step), toolCalls };
  });
  const resumeToolCalls = beforeFirstStep.map((span) => toolCallFromSpan({ index, span, context: { loopWentOn: steps.length > 0 } }));

  const pending = turns.at(-1)?.toolCalls.filter((call) => call.status === 'interrupted') ?? [];
  const outcome = genAiCallFields({ running, failed, paused: pending, classification, call: callView, lastStep: lastStep?.view, turns });
  const { status, finishReason } = outcome;
  const resume = readAiSdkResolutions({ generateId: id, input: callView.input.messages, firstModelInput: steps[0]?.view.input.messages ?? [], resumeToolCalls, failedWith: failed ? (classification.exceptionType ?? classification.errorMessage) : undefined });
  // Stopped with `tool-calls` and nothing pending: every call ran, the step limit (stopWhen) ended the loop.
  const stepLimit = status === 'ok' && finishReason !== undefined && TOOL_CALLS_FINISH_REASONS.has(finishReason) && (lastStep?.requests.length ?? 0) > 0;
  const call = newGenerateCall({
    root,
    flowSpanId,
    read: {
      ...outcome,
      turns,
      resumeToolCalls,
      resume: resume ? { resolutions: resume.resolutions } : undefined,
      notes,
      runtimeState: stepLimit ? STATES.stepLimit : undefined,
    },
  });
  return {
    call,
    interrupted: aiSdkInterruptedKey({ call, root, lastModelMessages: lastStep ? [...lastStep.view.input.messages, ...lastStep.view.output.messages] : [] }),
    resume: resume ? aiSdkResumeKey({ call, root, history: resume.history, requestIds: resume.requestIds }) : undefined,
  };
}

function modelCallOf(index: SpanIndex, step: ModelStep) {
  const classification = index.classify(step.span);
  // Answered by hand at a Loopscope pause: the model was not called (loopscope-markers.ts).
  const handWritten = step.span.attributes[AI_SDK_STEP_MARKERS.handWritten] === 'true';
  return {
    ...(handWritten ? { handWritten: true as const } : {}),
    id: spanKey(step.span),
    traceId: step.span.traceId,
    spanId: step.span.spanId,
    model: handWritten ? HAND_WRITTEN_MODEL : classification.label,
    status: classification.outcome === 'running' ? ('running' as const) : classification.outcome === 'error' ? ('error' as const) : ('ok' as const),
    toolRequests: step.requests,
    text: messageText(step.view.output.messages.at(-1)),
    finishReason: step.view.finishReasons[0],
    errorMessage: classification.errorMessage,
  };
}
