/**
 * Google ADK's own words in its spans (google-adk 2.13, its semconv-aligned telemetry:
 * docs/guides/google-adk.md): its tracer, its attributes, the texts it puts in a tool's result for
 * a confirmation it waits for and one it was refused, the note it adds to a long-running tool's
 * description, the id it writes when it lost the call id, and its names for the pauses and answers.
 */
import { isObject } from '../../../spans/json-value';
import type { RuntimeState } from '../../../loop/loop-model';

/** The tracer ADK writes every span with. */
export const ADK_SCOPE = 'gcp.vertex.agent';

export const ADK_ATTRIBUTES = {
  /** On `generate_content`: the invocation the call belongs to — the answering run continues the paused one's. */
  invocationId: 'gcp.vertex.agent.invocation_id',
  eventId: 'gcp.vertex.agent.event_id',
} as const;

/** The `gen_ai.tool.name` of the span ADK writes for a turn's merged function responses: no tool call of the model. */
export const MERGED_TOOLS_NAME = '(merged tools)';

/** The call id ADK writes when it has none (a tool error that fails the run). */
export const UNSPECIFIED_CALL_ID = '<not specified>';

/** The result ADK records for a `FunctionTool(require_confirmation=True)` call it did not run, waiting for a confirmation. */
export const CONFIRMATION_PLACEHOLDER = 'This tool call requires confirmation, please approve or reject.';

/** The result ADK records for a call whose confirmation came back `confirmed: false` (the tool did not run). */
export const CONFIRMATION_REJECTED = 'This tool call is rejected.';

/** The `gen_ai.tool.type` of a `LongRunningFunctionTool`. */
export const LONG_RUNNING_TOOL_TYPE = 'LongRunningFunctionTool';

/** The note ADK appends to a long-running tool's description (in the tool definitions the model is offered). */
export const LONG_RUNNING_NOTE = 'NOTE: This is a long-running operation.';

/** The function ADK asks the caller to answer for a confirmation (`adk_request_confirmation`); its id is in no span. */
export const CONFIRMATION_FUNCTION = 'adk_request_confirmation';

/** The `error` text of a tool result (`{"error": "…"}`), when it has one. */
export function resultError(output: unknown): string | undefined {
  return isObject(output) && typeof output.error === 'string' ? output.error : undefined;
}

export const ADK_PAUSES = {
  confirmation: 'approval required (FunctionTool require_confirmation)',
  requestConfirmation: 'confirmation requested (tool_context.request_confirmation)',
  longRunning: 'long-running — waiting for its final result',
} as const;

export const ADK_STATES = {
  toolError: { code: 'TOOL_ERROR', words: 'tool error — the error callback’s result went to the model; the run went on' } satisfies RuntimeState,
  rejected: { code: 'denied', words: 'denied — ADK did not run the tool (confirmed: false); its span records ADK’s rejection' } satisfies RuntimeState,
  neverRan: { code: 'not-run', words: 'never ran — the run failed first' } satisfies RuntimeState,
} as const;

/** How an answering run resolved a paused call, in ADK's words. */
export const ADK_RESOLUTIONS = {
  confirmed: 'confirmed — the tool ran in the answering run',
  rejected: 'denied (confirmed: false) — no tool ran: its span records ADK’s rejection',
  longRunningResult: 'the caller’s FunctionResponse — the long-running call’s final result, no tool span',
  callerResult: 'the caller’s FunctionResponse — no tool span',
  ranAgain: 'the tool ran again with the confirmation (tool_context.tool_confirmation)',
} as const;
