/**
 * The Vercel AI SDK v7 dialect: the SDK's spans read into the loop model — those of its
 * `OpenTelemetry` integration (the OTel GenAI conventions: `invoke_agent`, `agent_step`, `chat`,
 * `execute_tool`) and of `LegacyOpenTelemetry` (`ai.generateText`, `ai.streamText`, their
 * `doGenerate` / `doStream`, `ai.toolCall`) — the spans of the SDK's own tracers and with its
 * marks (classify-span.ts); other apps' GenAI spans are other dialects' (lib/runtimes/index.ts).
 * The conventions themselves are lib/runtimes/otel-genai/read/, the SDK's own words are here
 * (sdk-words.ts, legacy-spans.ts).
 * Approvals and handed-back tools are drawn as pauses and linked to their answers by tool call
 * id (read-call.ts, read-resolutions.ts, link-keys.ts), and answered by the SDK's rules
 * (resume-context.ts rebuilds the next call's history, resume-rules.ts checks approve / deny /
 * respond answers; docs/interrupt-model.md, "Vercel AI SDK v7").
 */
import { enclosingCall } from '../../../loop/span-index';
import type { RuntimeDialect } from '../../../loop/runtime-dialect';
import { aiSdkAfterLinking } from './after-linking';
import { classifyAiSdkSpan, isAiSdkSpan } from './classify-span';
import { readAiSdkCall } from './read-call';
import { toolCallFromSpan } from './read-tool-call';
import { aiSdkSpanValues } from './span-values';
import { aiSdkConversationOf } from './conversation';
import { AI_SDK_DIALECT_ID } from './dialect-id';
import { aiSdkResumeContextOf } from './resume-context';
import { validateAiSdkResume, waitingForOf } from './resume-rules';
import { AI_SDK_ANSWER_KINDS, aiSdkAnswerSnippet, aiSdkDefaultKind } from './resume-snippet';
import { aiSdkRunningTool } from './open-spans';
import { closeGenAiOpenSpan } from '../../otel-genai/read/genai-open-spans';
import { AI_SDK_MARK_ATTRIBUTES, AI_SDK_SCOPES } from './sdk-words';

export { AI_SDK_DIALECT_ID };
const TITLE = 'Vercel AI SDK';

export const aiSdk: RuntimeDialect = {
  id: AI_SDK_DIALECT_ID,
  title: TITLE,
  explains: {
    pause:
      'The model asked for this tool call, nothing ran it, and the call stopped with finish reason tool-calls: it waits for an approval (toolApproval) or for the caller to supply the result of a tool without execute. The AI SDK records no error: it is a pause, answered in a next call by a tool-approval-response or a tool-result part.',
    resolutions: {
      respond: 'Answered without running the tool — a denial the model sees, or the result the caller supplied',
      restart: 'Approved — the tool ran at the start of the answering call, before its first model call',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered — the answering call did not resolve this tool call (it failed first, or the answer was refused)',
    },
    sendSpans: 'experimental_telemetry alone emits nothing — call registerTelemetry(new OpenTelemetry()) from @ai-sdk/otel once, with a NodeSDK and an OTLPTraceExporter started.',
  },
  view: {
    pausedRun: "The run is paused: {count} tool call(s) wait for an answer (an approval to give, or a handed-back tool's result).",
    scenarioHint: 'AI SDK: the real generateText loop',
    showsNextMessages: true,
  },
  claimedBy: { scopes: AI_SDK_SCOPES, attributes: ['ai.operationId', ...AI_SDK_MARK_ATTRIBUTES] },
  claims: isAiSdkSpan,
  classify: classifyAiSdkSpan,
  // The SDK's spans carry no ancestry of their own (genkit's `genkit:path`): the parent chain decides.
  enclosedByCall: (index, span) => enclosingCall(index, span).call !== undefined,
  readCall: readAiSdkCall,
  readStandaloneTool: (index, span) => toolCallFromSpan({ index, span }),
  notesAfterLinking: aiSdkAfterLinking,
  spanValues: aiSdkSpanValues,
  conversationOf: aiSdkConversationOf,
  resume: {
    answerKinds: AI_SDK_ANSWER_KINDS,
    defaultKind: aiSdkDefaultKind,
    contextOf: aiSdkResumeContextOf,
    validate: validateAiSdkResume,
    waitingFor: waitingForOf,
    snippet: aiSdkAnswerSnippet,
  },
  runningTool: aiSdkRunningTool,
  closeOpenSpan: closeGenAiOpenSpan,
};
