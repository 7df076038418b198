/**
 * One view of an AI SDK span whichever integration recorded it — the OTel GenAI conventions
 * (`OpenTelemetry`) or `LegacyOpenTelemetry`'s `ai.*` spans: what kind of span it is, and its
 * messages, finish reasons and tool fields in the conventions' shapes. The call reader and the
 * classifier read only these.
 */
import type { AttributeValue, Span } from '../../../spans/span';
import { memoSlot, type SpanIndex } from '../../../loop/span-index';
import { AGENT_OPERATIONS, finishReasonsOf, GEN_AI, genAiOperation, MODEL_OPERATIONS, stringAttribute, TOOL_OPERATIONS } from '../../otel-genai/read/genai-attributes';
import { readGenAiMessages, type ReadMessages } from '../../otel-genai/read/genai-messages';
import { offeredTools, type OfferedTool } from '../../otel-genai/read/genai-tool-definitions';
import { LEGACY, legacyCallInput, legacyModelInput, legacyOperation, legacyOutput } from './legacy-spans';
import { LEGACY_CALLS, LEGACY_MODEL_CALLS, LEGACY_TOOL_CALLS } from './sdk-words';

export type SdkSpanKind = 'call' | 'model' | 'tool' | 'other';

/** Which integration recorded a span: the GenAI conventions, the legacy `ai.*` spans, or neither. */
export function sdkSpanSource(span: Span): 'genai' | 'legacy' | undefined {
  if (genAiOperation(span) !== undefined) return 'genai';
  const operation = legacyOperation(span);
  return LEGACY_CALLS.has(operation) || LEGACY_MODEL_CALLS.has(operation) || LEGACY_TOOL_CALLS.has(operation) ? 'legacy' : undefined;
}

/** A claimed span's kind in the loop: a top-level call, a model call, a tool call, or something else (an `agent_step`). */
export function sdkSpanKind(span: Span): SdkSpanKind {
  const operation = genAiOperation(span);
  if (operation !== undefined) {
    if (AGENT_OPERATIONS.has(operation)) return 'call';
    if (MODEL_OPERATIONS.has(operation)) return 'model';
    return TOOL_OPERATIONS.has(operation) ? 'tool' : 'other';
  }
  const legacy = legacyOperation(span);
  if (LEGACY_CALLS.has(legacy)) return 'call';
  if (LEGACY_MODEL_CALLS.has(legacy)) return 'model';
  return LEGACY_TOOL_CALLS.has(legacy) ? 'tool' : 'other';
}

export interface MessagesView {
  input: ReadMessages;
  output: ReadMessages;
  finishReasons: string[];
  model?: string;
  /** The tools a model call was offered, when recorded (`gen_ai.tool.definitions`, legacy `ai.prompt.tools`). */
  tools?: Map<string, OfferedTool>;
}

function modelName(span: Span): string | undefined {
  return stringAttribute(span.attributes[GEN_AI.responseModel]) ?? stringAttribute(span.attributes[GEN_AI.requestModel]) ?? stringAttribute(span.attributes[LEGACY.modelId]);
}

/** The finish reasons of a call or model span: GenAI's list, else the legacy `ai.response.finishReason`. */
export function finishReasonsOfSpan(span: Span): string[] {
  const reasons = finishReasonsOf(span.attributes[GEN_AI.finishReasons]);
  if (reasons.length > 0) return reasons;
  const legacy = stringAttribute(span.attributes[LEGACY.finishReason]);
  return legacy ? [legacy] : [];
}

const MESSAGES_VIEW = memoSlot<MessagesView>('ai-sdk messages view');

/**
 * The messages of a call or model span, parsed on each ask (keep the result) — or once per build
 * when the build's index is given, for a span two readers of the build want: a call's, which its
 * classification reads for a pause and its reader (`last`) for everything.
 */
export function messagesView(span: Span, build?: { index: SpanIndex; last: boolean }): MessagesView {
  return build ? build.index.memo({ slot: MESSAGES_VIEW, span, compute: readMessagesView, last: build.last }) : readMessagesView(span);
}

function readMessagesView(span: Span): MessagesView {
  const legacy = sdkSpanSource(span) === 'legacy';
  const kind = sdkSpanKind(span);
  return {
    input: legacy ? (kind === 'call' ? legacyCallInput(span) : legacyModelInput(span)) : readGenAiMessages(span.attributes[GEN_AI.inputMessages]),
    output: legacy ? legacyOutput(span) : readGenAiMessages(span.attributes[GEN_AI.outputMessages]),
    finishReasons: finishReasonsOfSpan(span),
    model: modelName(span),
    tools: kind === 'model' ? offeredTools(span.attributes[legacy ? LEGACY.tools : GEN_AI.toolDefinitions]) : undefined,
  };
}

export interface ToolView {
  name: string;
  callId?: string;
  /** `gen_ai.tool.type`: `function`, `extension` (the SDK: provider-executed), `datastore`. */
  type?: string;
  rawArguments?: AttributeValue;
  rawResult?: AttributeValue;
}

/** A tool span's fields. */
export function toolView(span: Span): ToolView {
  const attributes = span.attributes;
  const legacy = sdkSpanSource(span) === 'legacy';
  return {
    name: stringAttribute(attributes[legacy ? LEGACY.toolName : GEN_AI.toolName]) ?? span.name.replace(/^execute_tool /, ''),
    callId: stringAttribute(attributes[legacy ? LEGACY.toolCallId : GEN_AI.toolCallId]),
    type: legacy ? undefined : stringAttribute(attributes[GEN_AI.toolType]),
    rawArguments: attributes[legacy ? LEGACY.toolArguments : GEN_AI.toolArguments],
    rawResult: attributes[legacy ? LEGACY.toolResult : GEN_AI.toolResult],
  };
}

/** The label of a claimed span: the tool's name, the model's, else the span name (`invoke_agent probe`). */
export function sdkSpanLabel(span: Span): string {
  const kind = sdkSpanKind(span);
  if (kind === 'tool') return toolView(span).name;
  if (kind === 'model') return modelName(span) ?? span.name;
  return span.name;
}
