/**
 * The AI SDK's open spans (started, not ended): which of them is a tool executing, and how one
 * that Loopscope must end itself is ended in the OTel GenAI conventions' shape — never with
 * genkit's attributes.
 */
import type { Span } from '../../trace/span';
import { GEN_AI } from '../otel-genai/genai-attributes';
import type { OpenSpanClosing, OpenSpanEnding, RunningTool } from '../runtime-dialect';
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

/**
 * The conventions end a failed operation with an error status and `error.type`, a low-cardinality
 * class of the error: `cancelled` for a run the user stopped, the conventions' own `_OTHER` for
 * a process that died under it. The SDK itself sets the status with the error's message
 * (`@ai-sdk/otel` recordErrorOnSpan).
 */
export function closeAiSdkOpenSpan(_span: Span, ending: OpenSpanEnding): OpenSpanClosing {
  return {
    attributes: { [GEN_AI.errorType]: ending.kind === 'stopped' ? 'cancelled' : '_OTHER' },
    status: { code: 2, message: ending.message },
  };
}
