/**
 * How a flavor reads spans that follow the OTel GenAI conventions (lib/runtimes/otel-genai/read/):
 * the span's kind by `gen_ai.operation.name`, a call or model span's messages (on the span, or
 * on its `gen_ai.client.inference.operation.details` event; finish reasons from the attribute,
 * else from the output messages), a tool span's fields. A framework's flavor starts from these
 * and adds its own (ADK's merged-response span, LangGraph's task spans).
 */
import { jsonAttributeOrUndefined } from '../../spans/parse-json-attribute';
import type { AttributeValue, Span } from '../../spans/span';
import { AGENT_OPERATIONS, finishReasonsOf, GEN_AI, genAiContent, genAiOperation, MODEL_OPERATIONS, stringAttribute, TOOL_OPERATIONS } from '../otel-genai/read/genai-attributes';
import { finishReasonsOfMessages, readGenAiMessages } from '../otel-genai/read/genai-messages';
import { offeredTools } from '../otel-genai/read/genai-tool-definitions';
import type { LoopMessages, LoopSpanKind, LoopTool } from './loop-flavor';

/** The conventions' operations around calls (a workflow of agents: ADK's `invoke_workflow`). */
export const WORKFLOW_OPERATIONS: ReadonlySet<string> = new Set(['invoke_workflow']);

/** A GenAI span's kind in the loop, by its operation. */
export function genAiLoopKind(span: Span): LoopSpanKind {
  const operation = genAiOperation(span);
  if (operation === undefined) return 'other';
  if (AGENT_OPERATIONS.has(operation)) return 'call';
  if (MODEL_OPERATIONS.has(operation)) return 'model';
  if (TOOL_OPERATIONS.has(operation)) return 'tool';
  return WORKFLOW_OPERATIONS.has(operation) ? 'flow' : 'other';
}

/** A model's name as recorded (the response's, else the request's), leaving out the placeholder `unknown` some exporters write. */
export function genAiModelName(span: Span): string | undefined {
  for (const key of [GEN_AI.responseModel, GEN_AI.requestModel]) {
    const name = stringAttribute(span.attributes[key]);
    if (name !== undefined && name !== '' && name !== 'unknown') return name;
  }
  return undefined;
}

/** A GenAI span's label: the tool's name, the model's, a workflow's name, else undefined (the span name). */
export function genAiLabelOf(span: Span, kind: LoopSpanKind): string | undefined {
  if (kind === 'tool') return stringAttribute(span.attributes[GEN_AI.toolName]) ?? span.name.replace(/^execute_tool /, '');
  if (kind === 'model') return genAiModelName(span);
  if (kind === 'flow') return stringAttribute(span.attributes[GEN_AI.workflowName]);
  return undefined;
}

/** The messages of a GenAI call or model span (parsed on each ask: keep the result). */
export function genAiMessagesOf(span: Span): LoopMessages {
  const input = readGenAiMessages(genAiContent(span, GEN_AI.inputMessages));
  const output = readGenAiMessages(genAiContent(span, GEN_AI.outputMessages));
  const recorded = finishReasonsOf(span.attributes[GEN_AI.finishReasons]);
  return {
    input,
    output,
    finishReasons: recorded.length > 0 ? recorded : finishReasonsOfMessages(output.messages),
    model: genAiModelName(span),
    tools: offeredTools(genAiContent(span, GEN_AI.toolDefinitions)),
  };
}

/** A recorded value parsed when it is JSON, else kept as it is. */
export function parsedValue(value: AttributeValue | undefined): unknown {
  return value === undefined ? undefined : (jsonAttributeOrUndefined(value) ?? value);
}

/** A GenAI tool span's fields (`gen_ai.tool.*`). */
export function genAiToolOf(span: Span): LoopTool {
  const attributes = span.attributes;
  return {
    name: stringAttribute(attributes[GEN_AI.toolName]) ?? span.name.replace(/^execute_tool /, ''),
    callId: stringAttribute(attributes[GEN_AI.toolCallId]),
    type: stringAttribute(attributes[GEN_AI.toolType]),
    input: parsedValue(attributes[GEN_AI.toolArguments]),
    output: parsedValue(attributes[GEN_AI.toolResult]),
  };
}
