/**
 * The context to answer a paused GenAI-loop call, rebuilt from its spans for a framework's
 * resume rules: the paused model call's history and answer (for people: the framework keeps the
 * history itself, in its session or checkpoint), the tools it was offered, and every request of
 * the paused turn — paused ones with the framework's word for the pause, its id and the schema
 * an answer must keep — plus the conversation the answer goes to (ADK's session, LangGraph's
 * thread).
 */
import { spanKey, type Span } from '../../spans/span';
import type { GenerateCall, ToolCall } from '../../loop/loop-model';
import type { PendingRequest, RecordedToolDefinition, ResumeContext } from '../../loop/resume-model';
import type { SpanIndex } from '../../loop/span-index';
import { GEN_AI, stringAttribute } from '../otel-genai/read/genai-attributes';
import type { LoopFlavor } from './loop-flavor';
import { readLoopCall } from './read-loop-call';

/** A tool call of the paused call as a request of its context. */
function requestOf(call: ToolCall, facts?: Partial<PendingRequest>): PendingRequest {
  const paused = call.status === 'interrupted';
  return {
    name: call.name,
    ...(call.ref !== undefined ? { ref: call.ref } : {}),
    input: call.input,
    state: paused ? 'interrupted' : 'done',
    ...(paused && call.interrupt ? { interruptMetadata: call.interrupt.metadata } : {}),
    ...(paused && call.interrupt?.pausedAs ? { pausedAs: call.interrupt.pausedAs } : {}),
    ...(paused && call.interrupt?.pauseId !== undefined ? { pauseId: call.interrupt.pauseId } : {}),
    ...(paused ? facts : {}),
  };
}

/**
 * The context of a paused call: `call` as the graph read and linked it (else read here),
 * `allTurns`: list every call of the run (ADK checks an answer's id against every call of the
 * session), `factsOf`: the framework's facts of a paused call (what it waits for, the answer's schema).
 */
export function loopResumeContext(options: {
  flavor: LoopFlavor;
  root: Span;
  index: SpanIndex;
  call?: GenerateCall;
  allTurns?: boolean;
  conversationId?: string;
  factsOf?: (call: ToolCall) => Partial<PendingRequest>;
}): ResumeContext {
  const { flavor, root, index } = options;
  const call = options.call ?? readLoopCall(flavor, { index, root }).call;
  const pausedTurn = call.turns.findLast((turn) => turn.toolCalls.some((tool) => tool.status === 'interrupted')) ?? call.turns.at(-1);
  const calls = options.allTurns ? [...call.turns.flatMap((turn) => turn.toolCalls), ...call.resumeToolCalls] : [...(pausedTurn?.toolCalls ?? []), ...call.resumeToolCalls];
  const seen = new Set<string>();
  const requests = calls
    .filter((tool) => {
      const key = tool.ref ?? tool.id;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((tool) => requestOf(tool, options.factsOf?.(tool)));
  const modelSpan = pausedTurn?.model ? index.spans.find((span) => spanKey(span) === pausedTurn.model?.id) : undefined;
  const view = modelSpan ? flavor.messagesOf(modelSpan, index) : undefined;
  const tools: RecordedToolDefinition[] = [...(view?.tools?.values() ?? [])].map((tool) => ({ name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}) }));
  const provider = modelSpan ? stringAttribute(modelSpan.attributes[GEN_AI.providerName]) : undefined;
  return {
    dialect: flavor.id,
    callName: root.name,
    traceId: root.traceId,
    spanId: root.spanId,
    model: call.model,
    ...(provider ? { modelProvider: provider } : {}),
    messages: structuredClone(view ? [...view.input.messages, ...view.output.messages] : []),
    tools,
    requests: structuredClone(requests),
    ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
  };
}
