/**
 * Pydantic AI (its own instrumentation, `Agent.instrument_all`, formats 5 and 6), read by the
 * shared GenAI-loop reader (lib/runtimes/genai-loop/) with Pydantic AI's flavor — what it records
 * where is docs/guides/pydantic-ai.md: the agent run's conversation in `pydantic_ai.all_messages`,
 * tool results under `result`, pauses as deferred tool calls (a deferring tool span, or no span at
 * all and only the run's `final_result`), the answering run a new trace of the same
 * `gen_ai.conversation.id` that runs the approved tools before its first model call. Claimed by
 * its instrumentation scope, `pydantic-ai`.
 */
import type { Span } from '../../../spans/span';
import { genAiLabelOf, genAiLoopKind, genAiToolOf } from '../../genai-loop/genai-span-reading';
import { loopDialect } from '../../genai-loop/loop-dialect';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { PYDANTIC_AI_DIALECT_ID } from './dialect-id';
import { nameLinkedAnswers } from './pydantic-answer-words';
import { isPydanticAiSpan, PYDANTIC_AI_SCOPE } from './pydantic-attributes';
import { pydanticMessagesOf } from './pydantic-messages';
import { decoratePydanticTool, pydanticPauseOf, pydanticPausesOfCall } from './pydantic-pauses';
import { pydanticResumeRules } from './resume-rules-of';

export { PYDANTIC_AI_DIALECT_ID };

const readingFlavor: LoopFlavor = {
  id: PYDANTIC_AI_DIALECT_ID,
  title: 'Pydantic AI',
  explains: {
    pause:
      'Pydantic AI deferred this tool call: it waits for an approval (requires_approval=True, or the tool raised ApprovalRequired) or for the caller’s result (the tool raised CallDeferred, or it is an external tool). The run ended with DeferredToolRequests as its output; it goes on when the app runs the agent again with the message history and DeferredToolResults.',
    resolutions: {
      respond:
        'Answered without running the tool: its result reached the next model call and no tool span ran it. Pydantic AI records neither the answer nor its kind: a denial (ToolDenied), the caller’s result, ToolFailed and ModelRetry look the same.',
      restart: 'Approved: the tool ran in the answering run, before its first model call (with the new arguments of ToolApproved(override_args), when they differ).',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered by the answering run',
    },
    sendSpans:
      'Call Agent.instrument_all(InstrumentationSettings(version=6)) after setting a TracerProvider whose OTLPSpanExporter sends to http://127.0.0.1:4747/v1/traces (docs/guides/pydantic-ai.md).',
  },
  claimedBy: { scopes: [PYDANTIC_AI_SCOPE] },
  claims: (span: Span) => isPydanticAiSpan(span),
  kindOf: genAiLoopKind,
  labelOf: genAiLabelOf,
  messagesOf: pydanticMessagesOf,
  toolOf: genAiToolOf,
  pauseOf: pydanticPauseOf,
  pausesOfCall: pydanticPausesOfCall,
  decorateTool: decoratePydanticTool,
  // The answering run continues the paused run's message history, and with it its conversation id.
  linkScope: ({ root }) => {
    const conversation = stringAttribute(root.attributes[GEN_AI.conversationId]);
    return conversation === undefined ? undefined : `pydantic-ai:conversation:${conversation}`;
  },
  afterLinking: (generates) => nameLinkedAnswers({ generates, runtime: PYDANTIC_AI_DIALECT_ID }),
  words: {
    toolError: { code: 'tool-error', words: 'failed — Pydantic AI gave the model the error and the loop went on' },
    notExecuted: {
      pausedAs: 'deferred',
      metadata: { waitingFor: 'an answer (DeferredToolResults)', evidence: 'asked for in the last model call, and no tool span ran it before the run ended' },
      evidence: 'message',
    },
    neverRan: { code: 'never-ran', words: 'never ran — the run failed first' },
    ranAgain: 'approved — the tool ran in the answering run',
    answeredWithoutSpan: 'answered without running the tool (DeferredToolResults) — no tool span in the answering run',
    answeredInRun: { code: 'answered-in-run', words: 'answered inside the run without running the tool (a HandleDeferredToolCalls handler) — no tool span; its result went to the model' },
  },
};

/** Pydantic AI's flavor, with its resume rules. */
export const pydanticAiFlavor: LoopFlavor = { ...readingFlavor, resume: pydanticResumeRules(readingFlavor) };

export const pydanticAi = loopDialect(pydanticAiFlavor);
