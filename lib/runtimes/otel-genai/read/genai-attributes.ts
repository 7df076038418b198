/**
 * The OpenTelemetry GenAI semantic conventions (semantic-conventions-genai, status Development),
 * as Loopscope reads them: attribute names, operation names and finish reasons. Emitted by the
 * Vercel AI SDK v7 (`@ai-sdk/otel`), Google ADK, LangChain's instrumentations and others alike
 * (docs/adr/0012-framework-dialects.md). No runtime's own words live here: each runtime's are in
 * its dialect's folder.
 */
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue, Span } from '../../../spans/span';

export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolDefinitions: 'gen_ai.tool.definitions',
  finishReasons: 'gen_ai.response.finish_reasons',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  toolDescription: 'gen_ai.tool.description',
  systemInstructions: 'gen_ai.system_instructions',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  errorType: 'error.type',
} as const;

/**
 * The event the conventions put content on when it is not on the span itself
 * (`gen_ai.client.inference.operation.details`: `gen_ai.input.messages`, `gen_ai.output.messages`,
 * `gen_ai.system_instructions`, `gen_ai.tool.definitions` as its attributes).
 */
export const OPERATION_DETAILS_EVENT = 'gen_ai.client.inference.operation.details';

/** A content attribute of a GenAI span: on the span, else on its operation-details event (content captured as an event). */
export function genAiContent(span: Span, key: string): AttributeValue | undefined {
  const own = span.attributes[key];
  if (own !== undefined) return own;
  for (const event of span.events) if (event.name === OPERATION_DETAILS_EVENT && event.attributes[key] !== undefined) return event.attributes[key];
  return undefined;
}

/** `invoke_agent`: one agent run (a top-level call of the loop). */
export const AGENT_OPERATIONS: ReadonlySet<string> = new Set(['invoke_agent']);
/** One model call (`chat`; older and other providers' names of the same). */
export const MODEL_OPERATIONS: ReadonlySet<string> = new Set(['chat', 'text_completion', 'generate_content']);
/** One tool execution. */
export const TOOL_OPERATIONS: ReadonlySet<string> = new Set(['execute_tool']);

/**
 * Finish reasons that mean "the model asked for tools": the conventions' `tool_call`, the AI
 * SDK's `tool-calls`, OpenAI's `tool_calls`.
 */
export const TOOL_CALLS_FINISH_REASONS: ReadonlySet<string> = new Set(['tool_call', 'tool-calls', 'tool_calls']);

/** The span's `gen_ai.operation.name`, if it has one. */
export function genAiOperation(span: Span): string | undefined {
  const value = span.attributes[GEN_AI.operation];
  return typeof value === 'string' ? value : undefined;
}

/** A string attribute, or undefined. */
export function stringAttribute(value: AttributeValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * `gen_ai.response.finish_reasons`: an array attribute by the conventions; some exporters store
 * it as a JSON string or one plain string.
 */
export function finishReasonsOf(value: AttributeValue | undefined): string[] {
  if (Array.isArray(value)) return value.filter((reason): reason is string => typeof reason === 'string');
  if (typeof value !== 'string' || value === '') return [];
  const parsed = value.startsWith('[') ? tryParseJsonLimited(value) : undefined;
  if (parsed?.ok && Array.isArray(parsed.value)) return parsed.value.filter((reason): reason is string => typeof reason === 'string');
  // Not a JSON list: one reason as it was written.
  return [value];
}
