/**
 * How LangGraph's spans read under each of the two instrumentations recorded
 * (docs/guides/langgraph.md): which span is the graph run, a model call, a tool; a model call's
 * messages; a tool span's name, call id, input and output (the call id is in no attribute of
 * its own: opentelemetry-instrumentation-langchain keeps it in the callback's kwargs and in the
 * ToolMessage, OpenInference in the ToolMessage, both in the tool task's input); the `Command` a
 * resumed run was invoked with; the thread id; a node's name.
 */
import { isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import type { LoopMessages, LoopSpanKind, LoopTool } from '../../genai-loop/loop-flavor';
import { genAiMessagesOf, genAiModelName } from '../../genai-loop/genai-span-reading';
import type { SpanIndex } from '../../../loop/span-index';
import { GEN_AI, genAiOperation, MODEL_OPERATIONS, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { OPENINFERENCE, openInferenceKind } from '../../openinference/openinference-attributes';
import { openInferenceMessages, openInferenceTools } from '../../openinference/openinference-messages';
import { readPythonRepr } from '../../python-values/python-repr';
import { commandOf, jsonOf, toolCallOfTaskInput, toolMessageOf } from './langchain-values';
import { OPENINFERENCE_SCOPE, TRACELOOP, TRACELOOP_SCOPE } from './langgraph-words';

export interface InstrumentationReader {
  kindOf(span: Span): LoopSpanKind;
  labelOf(span: Span, kind: LoopSpanKind): string | undefined;
  messagesOf(span: Span): LoopMessages;
  toolOf(span: Span, index?: SpanIndex): LoopTool;
  /** The recorded input of a task span (its `tool_call_with_context`, its state). */
  taskInputOf(span: Span): unknown;
  /** The `Command` the run was invoked with, from its root (and, for the GenAI instrumentation, its workflow span). */
  commandOf(root: Span, index: SpanIndex): ReturnType<typeof commandOf>;
  threadOf(root: Span): string | undefined;
  nodeNameOf(span: Span): string;
}

/** The tool call of the task a tool span runs in (its parent's `tool_call_with_context`). */
function taskToolCall(options: { reader: InstrumentationReader; span: Span; index: SpanIndex | undefined }) {
  const { reader, span, index } = options;
  const parent = index?.parentOf(span);
  return parent && reader.kindOf(parent) === 'other' ? toolCallOfTaskInput(reader.taskInputOf(parent)) : undefined;
}

/** A tool's input recorded as the repr of a Python dict (`input_str`), read when it reads as a dict. */
function dictFromRepr(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  const read = readPythonRepr(text);
  return read.ok && isObject(read.value) ? read.value : undefined;
}

/** opentelemetry-instrumentation-langchain: the OTel GenAI conventions, with LangChain's callback data in `traceloop.*`. */
export const traceloopReader: InstrumentationReader = {
  kindOf(span) {
    const operation = genAiOperation(span);
    // The graph's workflow span repeats `invoke_agent` inside the run's own span.
    if (operation === 'invoke_agent') return span.attributes[TRACELOOP.spanKind] === undefined ? 'call' : 'other';
    if (operation !== undefined && MODEL_OPERATIONS.has(operation)) return 'model';
    return operation === 'execute_tool' ? 'tool' : 'other';
  },
  labelOf(span, kind) {
    if (kind === 'tool') return stringAttribute(span.attributes[GEN_AI.toolName]) ?? span.name.replace(/^execute_tool /, '');
    if (kind === 'model') return genAiModelName(span) ?? span.name.replace(/\.chat$/, '');
    return undefined;
  },
  messagesOf: genAiMessagesOf,
  toolOf(span, index) {
    const args = jsonOf(span.attributes[GEN_AI.toolArguments]);
    const kwargs = isObject(args) && isObject(args.kwargs) ? args.kwargs : undefined;
    const result = jsonOf(span.attributes[GEN_AI.toolResult]);
    const output = isObject(result) && 'output' in result ? result.output : result;
    const message = toolMessageOf(output);
    // The task's input holds the graph's whole state: read only when the callback's own data lacks the call.
    let taskCall: ReturnType<typeof taskToolCall> | null = null;
    const task = () => (taskCall === null ? (taskCall = taskToolCall({ reader: traceloopReader, span, index })) : taskCall);
    const callId = (typeof kwargs?.tool_call_id === 'string' ? kwargs.tool_call_id : undefined) ?? message?.toolCallId ?? task()?.id;
    const input = (isObject(args) && isObject(args.inputs) ? args.inputs : undefined) ?? dictFromRepr(isObject(args) ? args.input_str : undefined) ?? task()?.args;
    return {
      name: stringAttribute(span.attributes[GEN_AI.toolName]) ?? span.name.replace(/^execute_tool /, ''),
      ...(callId !== undefined ? { callId } : {}),
      type: stringAttribute(span.attributes[GEN_AI.toolType]),
      input,
      output: message ? message.content : output,
    };
  },
  taskInputOf: (span) => jsonOf(span.attributes[TRACELOOP.taskInput] ?? span.attributes[TRACELOOP.entityInput]),
  commandOf(root, index) {
    for (const span of [root, ...index.childrenOf(root)]) {
      const command = commandOf(jsonOf(span.attributes[TRACELOOP.entityInput]));
      if (command) return command;
    }
    return undefined;
  },
  threadOf: (root) => stringAttribute(root.attributes[GEN_AI.conversationId]) ?? stringAttribute(root.attributes['traceloop.association.properties.thread_id']),
  nodeNameOf: (span) => stringAttribute(span.attributes[TRACELOOP.entityName]) ?? span.name.replace(/^execute_task /, ''),
};

/** The finish reasons of an OpenInference LLM span (`llm.finish_reason`, one string). */
function openInferenceFinishReasons(span: Span): string[] {
  const reason = span.attributes[OPENINFERENCE.finishReason];
  return typeof reason === 'string' && reason !== '' ? [reason] : [];
}

/** openinference-instrumentation-langchain: span kinds, flattened messages, `input.value` / `output.value`. */
export const openInferenceReader: InstrumentationReader = {
  kindOf(span) {
    const kind = openInferenceKind(span);
    if (kind === 'LLM') return 'model';
    if (kind === 'TOOL') return 'tool';
    // The graph run is an AGENT span; a node of it (an AGENT too) carries its LangGraph node in `metadata`.
    if (kind === 'AGENT') {
      const metadata = span.attributes[OPENINFERENCE.metadata];
      return typeof metadata === 'string' && metadata.includes('"langgraph_node"') ? 'other' : 'call';
    }
    return 'other';
  },
  labelOf(span, kind) {
    if (kind === 'tool') return stringAttribute(span.attributes[OPENINFERENCE.toolName]) ?? span.name;
    if (kind === 'model') return stringAttribute(span.attributes[OPENINFERENCE.modelName]) ?? span.name;
    return undefined;
  },
  messagesOf(span) {
    const { input, output } = openInferenceMessages(span);
    return {
      input: { messages: input },
      output: { messages: output },
      finishReasons: openInferenceFinishReasons(span),
      model: stringAttribute(span.attributes[OPENINFERENCE.modelName]),
      tools: openInferenceTools(span),
    };
  },
  toolOf(span, index) {
    const rawOutput = span.attributes[OPENINFERENCE.outputValue];
    const message = toolMessageOf(jsonOf(rawOutput));
    // The task's input holds the graph's whole state: read only when the tool's own data lacks the call.
    let taskCall: ReturnType<typeof taskToolCall> | null = null;
    const task = () => (taskCall === null ? (taskCall = taskToolCall({ reader: openInferenceReader, span, index })) : taskCall);
    const parsedInput = jsonOf(span.attributes[OPENINFERENCE.inputValue]);
    // A one-argument tool records its bare value (`Paris`): the task's tool call has the arguments.
    const input = isObject(parsedInput) ? parsedInput : (task()?.args ?? span.attributes[OPENINFERENCE.inputValue] ?? undefined);
    const callId = message?.toolCallId ?? task()?.id;
    return {
      name: stringAttribute(span.attributes[OPENINFERENCE.toolName]) ?? span.name,
      ...(callId !== undefined ? { callId } : {}),
      input,
      output: message ? message.content : (jsonOf(rawOutput) ?? rawOutput ?? undefined),
    };
  },
  taskInputOf: (span) => jsonOf(span.attributes[OPENINFERENCE.inputValue]),
  commandOf: (root) => commandOf(jsonOf(root.attributes[OPENINFERENCE.inputValue])),
  threadOf: (root) => stringAttribute(root.attributes[OPENINFERENCE.sessionId]),
  nodeNameOf: (span) => span.name,
};

/** The reader of the instrumentation that recorded a span (by its tracer). */
export function readerOf(span: Span): InstrumentationReader {
  return span.scope.name === OPENINFERENCE_SCOPE ? openInferenceReader : traceloopReader;
}

/** The tracers LangGraph's spans come from. */
export const LANGGRAPH_SCOPES: readonly string[] = [TRACELOOP_SCOPE, OPENINFERENCE_SCOPE];
