/**
 * The AI SDK's open spans (started, not ended): which of them is a tool executing, and how one
 * that Loopscope must end itself is ended in the OTel GenAI conventions' shape
 * (otel-genai/read/genai-open-spans.ts) — never with genkit's attributes.
 */
import type { Span } from '../../../spans/span';
import type { RunningTool } from '../../../loop/runtime-dialect';
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
