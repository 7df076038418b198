/**
 * The OpenAI Agents SDK (Python) through its GenAI instrumentation
 * (`opentelemetry-instrumentation-openai-agents`), read by the shared GenAI-loop reader
 * (lib/runtimes/genai-loop/) with the SDK's flavor — what it records where is
 * docs/guides/openai-agents.md: no messages on the agent span (the first model call's history is
 * the run's), one message per tool call, past calls named by their Responses item id, tool spans
 * without call ids (paired with the model's calls by name and arguments), the call waiting for an
 * approval as a tool span without a result, and the answering run a new trace with no link and no
 * conversation id — tied to the paused run by the agent's name and the history it continues.
 * Claimed by its instrumentation scope.
 */
import type { Span } from '../../../spans/span';
import { genAiLabelOf, genAiToolOf } from '../../genai-loop/genai-span-reading';
import { loopDialect } from '../../genai-loop/loop-dialect';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { OPENAI_AGENTS_DIALECT_ID } from './dialect-id';
import { agentsAfterLinking, ANSWER_WORDS, readAgentsAnswers } from './openai-agents-answers';
import { isOpenAiAgentsSpan, OPENAI_AGENTS_SCOPE } from './openai-agents-attributes';
import { agentsMessagesOf } from './openai-agents-messages';
import { agentsErrorMessageOf, agentsKindOf, agentsPauseOf } from './openai-agents-spans';
import { agentsResumeRules } from './resume-rules-of';

export { OPENAI_AGENTS_DIALECT_ID };

const readingFlavor: LoopFlavor = {
  id: OPENAI_AGENTS_DIALECT_ID,
  title: 'OpenAI Agents SDK',
  explains: {
    pause:
      'The OpenAI Agents SDK stopped this call for an approval (needs_approval): the run returned it in result.interruptions and the tool did not run. Its tool span has the arguments and no result — nothing else in the spans marks the pause. The run goes on when the app approves or rejects it on the run state (state.approve / state.reject) and calls Runner.run(agent, state).',
    resolutions: {
      respond: 'Rejected (state.reject): the tool did not run; the model got the rejection message as its result.',
      restart: 'Approved (state.approve): the tool ran in the answering run, before its first model call.',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered by the answering run',
    },
    sendSpans:
      'Install opentelemetry-instrumentation-openai-agents and call OpenAIAgentsInstrumentor().instrument(tracer_provider=…) with a TracerProvider whose OTLPSpanExporter sends to http://127.0.0.1:4747/v1/traces (docs/guides/openai-agents.md).',
  },
  claimedBy: { scopes: [OPENAI_AGENTS_SCOPE] },
  claims: (span: Span) => isOpenAiAgentsSpan(span),
  kindOf: agentsKindOf,
  labelOf: genAiLabelOf,
  messagesOf: agentsMessagesOf,
  toolOf: genAiToolOf,
  pauseOf: agentsPauseOf,
  errorMessageOf: agentsErrorMessageOf,
  readAnswers: readAgentsAnswers,
  // No id ties the two traces: the agent's name does, and the history each records decides between runs of one agent.
  linkScope: ({ root }) => `openai-agents:agent:${stringAttribute(root.attributes[GEN_AI.agentName]) ?? root.name}`,
  afterLinking: agentsAfterLinking,
  words: {
    toolError: { code: 'tool-error', words: 'failed — the SDK gave the model its failure_error_function text and the loop went on' },
    notExecuted: {
      pausedAs: 'not executed',
      metadata: { waitingFor: 'an answer', evidence: 'asked for in the last model call, and no tool span ran it before the run ended' },
      evidence: 'message',
    },
    neverRan: { code: 'never-ran', words: 'never ran — the run failed first' },
    ranAgain: ANSWER_WORDS.ran,
    answeredWithoutSpan: ANSWER_WORDS.withoutSpan,
  },
};

/** The OpenAI Agents SDK's flavor, with its resume rules. */
export const openAiAgentsFlavor: LoopFlavor = { ...readingFlavor, resume: agentsResumeRules(readingFlavor) };

export const openAiAgents = loopDialect(openAiAgentsFlavor);
