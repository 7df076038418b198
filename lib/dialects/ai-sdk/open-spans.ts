/**
 * The AI SDK's open spans (started, not ended): which of them is a tool executing, and how one
 * that Loopscope must end itself is ended in the OTel GenAI conventions' shape — never with
 * genkit's attributes.
 */
import type { Span } from '../../trace/span';
import { closeGenAiOpenSpan } from '../otel-genai/genai-open-spans';
import type { RunningTool } from '../runtime-dialect';
import { PROVIDER_EXECUTED_TOOL_TYPE } from './sdk-words';
import { sdkSpanKind, toolView } from './span-views';

/**
 * An `execute_tool` span (or the legacy `ai.toolCall`) that started: the tool's `execute` runs
 * now. A provider-executed tool (`gen_ai.tool.type = extension`) runs nothing here.
 */
export function aiSdkRunningTool(span: Span): RunningTool | undefined {
  if (sdkSpanKind(span) !== 'tool') return undefined;
  const view = toolView(span);
  if (view.type === PROVIDER_EXECUTED_TOOL_TYPE) return undefined;
  return { name: view.name, ...(view.callId !== undefined ? { ref: view.callId } : {}) };
}

/** The SDK ends a failed operation as the conventions do (`@ai-sdk/otel` recordErrorOnSpan sets the status with the error's message). */
export const closeAiSdkOpenSpan = closeGenAiOpenSpan;
