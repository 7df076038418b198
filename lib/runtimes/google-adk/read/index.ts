/**
 * Google ADK (Python, google-adk 2.13): its own spans (tracer `gcp.vertex.agent`, the OTel GenAI
 * conventions: `invoke_workflow` around `invoke_agent`, `generate_content` model calls,
 * `execute_tool` tools) read by the shared GenAI-loop reader (lib/runtimes/genai-loop/) with
 * ADK's evidence and words (adk-words.ts; docs/guides/google-adk.md):
 * - `generate_content` finishes `stop` also when it asks for tools: a call asked for is read
 *   from the output messages, not the finish reason;
 * - the `execute_tool (merged)` span of a parallel turn is ADK's merged response, no call;
 * - a tool error that fails the run loses its call id (`<not specified>`): the span is paired
 *   with the model's call by name and arguments;
 * - pauses: a `require_confirmation` call ADK did not run (its placeholder result), a
 *   `LongRunningFunctionTool` call (waiting for its final result), and a
 *   `request_confirmation` pause only the answering run shows (adk-after-linking.ts);
 * - the answering run continues the paused invocation (same `gcp.vertex.agent.invocation_id`):
 *   that is its link; its answers are read by read-adk-answers.ts.
 * Answers are checked by ADK's rules (resume-rules.ts) and given as the app's Python
 * (resume-snippet.ts): Loopscope does not run ADK apps.
 */
import type { Span } from '../../../spans/span';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { genAiLabelOf, genAiLoopKind, genAiMessagesOf, genAiToolOf } from '../../genai-loop/genai-span-reading';
import { loopDialect } from '../../genai-loop/loop-dialect';
import type { LoopFlavor, LoopPause, LoopTool } from '../../genai-loop/loop-flavor';
import { adkAfterLinking } from './adk-after-linking';
import { ADK_ATTRIBUTES, ADK_PAUSES, ADK_SCOPE, ADK_STATES, CONFIRMATION_FUNCTION, CONFIRMATION_PLACEHOLDER, CONFIRMATION_REJECTED, LONG_RUNNING_TOOL_TYPE, MERGED_TOOLS_NAME, resultError, UNSPECIFIED_CALL_ID } from './adk-words';
import { GOOGLE_ADK_DIALECT_ID } from './dialect-id';
import { readAdkAnswers } from './read-adk-answers';
import { adkResumeRules } from './resume-rules';

export { GOOGLE_ADK_DIALECT_ID };

function adkKind(span: Span) {
  const kind = genAiLoopKind(span);
  // The merged response of a parallel turn is no tool call of the model.
  return kind === 'tool' && span.attributes[GEN_AI.toolName] === MERGED_TOOLS_NAME ? 'other' : kind;
}

function adkTool(span: Span): LoopTool {
  const tool = genAiToolOf(span);
  return tool.callId === UNSPECIFIED_CALL_ID ? { ...tool, callId: undefined } : tool;
}

/** A tool span that is a pause: a call ADK did not run for want of a confirmation, or a long-running call's interim result. */
function adkPause(span: Span): LoopPause | undefined {
  if (adkKind(span) !== 'tool') return undefined;
  const tool = adkTool(span);
  if (resultError(tool.output) === CONFIRMATION_PLACEHOLDER) {
    return { pausedAs: ADK_PAUSES.confirmation, metadata: { waitingFor: `a FunctionResponse to ADK's ${CONFIRMATION_FUNCTION} call (its id is in no span)`, result: tool.output }, evidence: 'result' };
  }
  if (tool.type === LONG_RUNNING_TOOL_TYPE && span.status.code !== 2 && span.endTimeUnixNano !== undefined) {
    return { pausedAs: ADK_PAUSES.longRunning, metadata: { interimResult: tool.output }, evidence: 'attribute' };
  }
  return undefined;
}

const isRejected = (span: Span) => adkKind(span) === 'tool' && resultError(adkTool(span).output) === CONFIRMATION_REJECTED;

export const googleAdkFlavor: LoopFlavor = {
  id: GOOGLE_ADK_DIALECT_ID,
  title: 'Google ADK',
  explains: {
    pause:
      'ADK did not finish this tool call: it waits for the caller — a confirmation (FunctionTool(require_confirmation=True), or tool_context.request_confirmation inside the tool: ADK sends an adk_request_confirmation function call, which no span records) or the final result of a LongRunningFunctionTool. ADK records no error: a new Runner.run_async on the same session, with a FunctionResponse, continues the paused invocation.',
    resolutions: {
      respond: 'Answered without running the tool — a refused confirmation (confirmed: false), or the caller’s FunctionResponse',
      restart: 'Confirmed — ADK ran the tool in the answering run, before its first model call',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered — ADK drops a confirmation the answer does not name',
    },
    sendSpans:
      'Google ADK writes its own spans (tracer gcp.vertex.agent): set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:4747/v1/traces and OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY, and call google.adk.telemetry.setup.maybe_set_otel_providers() before running the agent (docs/guides/google-adk.md).',
  },
  claimedBy: { scopes: [ADK_SCOPE] },
  claims: (span) => span.scope.name === ADK_SCOPE,
  kindOf: adkKind,
  labelOf: genAiLabelOf,
  messagesOf: genAiMessagesOf,
  toolOf: adkTool,
  pauseOf: adkPause,
  // A refused confirmation is recorded as an error: it is a denial, the tool did not run.
  outcomeOf: (span, outcome) => (outcome === 'error' && isRejected(span) ? 'ok' : outcome),
  decorateTool: ({ call, span }) => {
    // A tool error the error callback handled records only `TOOL_ERROR` as its message; the callback's result says what failed.
    if (call.status === 'error' && call.errorMessage === ADK_STATES.toolError.code) call.errorMessage = resultError(call.output) ?? call.errorMessage;
    if (!isRejected(span)) return;
    call.status = 'not-run';
    call.runtimeState = ADK_STATES.rejected;
    call.errorMessage = undefined;
  },
  readAnswers: readAdkAnswers,
  linkScope: ({ models }) => {
    for (const span of models) {
      const invocation = stringAttribute(span.attributes[ADK_ATTRIBUTES.invocationId]);
      if (invocation) return `adk-invocation:${invocation}`;
    }
    return undefined;
  },
  silentPauses: true,
  afterLinking: adkAfterLinking,
  words: {
    toolError: ADK_STATES.toolError,
    notExecuted: {
      pausedAs: 'not executed',
      metadata: { evidence: 'asked for in the last model call, and no execute_tool span ran it before the run ended' },
      evidence: 'message',
    },
    neverRan: ADK_STATES.neverRan,
    ranAgain: 'the tool ran in the answering run',
    answeredWithoutSpan: 'the caller’s FunctionResponse — no tool span',
  },
};

const rules = adkResumeRules(googleAdkFlavor);
export const googleAdk = loopDialect(rules ? { ...googleAdkFlavor, resume: rules } : googleAdkFlavor);
