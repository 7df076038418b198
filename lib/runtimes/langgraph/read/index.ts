/**
 * LangGraph (Python, langgraph 1.2): its graph runs as LangChain's callbacks record them through
 * opentelemetry-instrumentation-langchain (the OTel GenAI conventions plus `traceloop.*`) or
 * openinference-instrumentation-langchain (OpenInference) — instrumentation-readers.ts reads each —
 * read by the shared GenAI-loop reader (lib/runtimes/genai-loop/) with LangGraph's evidence and
 * words (langgraph-words.ts; docs/guides/langgraph.md):
 * - the run is the graph's span (`invoke_agent <graph>` / the root AGENT span); nodes and tasks
 *   are steps inside it, the model calls and tools under them;
 * - a tool span names its call id nowhere of its own: it is read from the callback's kwargs, the
 *   ToolMessage, or the tool task's `tool_call_with_context`;
 * - a pause is `interrupt()` raising `GraphInterrupt`, kept as an exception event on the tool's
 *   span (or a review node's) — a pause, never an error, whatever status the span has — with its
 *   value, its interrupt id and its response_schema (graph-interrupts.ts);
 * - the answering run is invoked with `Command(resume=…)` on the same thread: the thread id is
 *   its link to the paused run, the interrupt ids tie each answer to its call
 *   (read-langgraph-answers.ts, langgraph-after-linking.ts).
 * Answers are checked by LangGraph's rules (resume-rules.ts) and given as `Command(resume=…)`
 * (resume-snippet.ts): Loopscope does not run LangGraph apps.
 */
import { isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import { loopDialect } from '../../genai-loop/loop-dialect';
import type { CallPause, LoopFlavor, LoopPause } from '../../genai-loop/loop-flavor';
import { LANGGRAPH_DIALECT_ID } from './dialect-id';
import { graphInterruptsOf, hasGraphInterrupt, type GraphInterruptInfo } from './graph-interrupts';
import { LANGGRAPH_SCOPES, readerOf } from './instrumentation-readers';
import { toolCallOfTaskInput } from './langchain-values';
import { langGraphAfterLinking } from './langgraph-after-linking';
import { LANGGRAPH_STATES } from './langgraph-words';
import { readLangGraphAnswers } from './read-langgraph-answers';
import { langGraphResumeRules } from './resume-rules';

export { LANGGRAPH_DIALECT_ID };

function pauseOfInterrupt(interrupt: GraphInterruptInfo, where: string): LoopPause {
  return {
    pausedAs: `interrupt (${where})`,
    metadata: interrupt.value,
    evidence: 'exception',
    ...(interrupt.id !== undefined ? { pauseId: interrupt.id } : {}),
    ...(interrupt.responseSchema !== undefined ? { answerSchema: interrupt.responseSchema } : {}),
  };
}

/** The tool call id an interrupt's value names (a review node's `{tool_call: {id}}`), if it names one. */
function callIdInValue(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  if (isObject(value.tool_call) && typeof value.tool_call.id === 'string') return value.tool_call.id;
  if (typeof value.tool_call_id === 'string') return value.tool_call_id;
  return undefined;
}

/** A tool span that called `interrupt()`: its first interrupt, as a pause. */
function langGraphPause(span: Span): LoopPause | undefined {
  if (!hasGraphInterrupt(span)) return undefined;
  const [interrupt] = graphInterruptsOf(span);
  if (!interrupt) return undefined;
  const reader = readerOf(span);
  const kind = reader.kindOf(span);
  return pauseOfInterrupt(interrupt, kind === 'tool' ? 'in the tool' : `in the ${reader.nodeNameOf(span)} node`);
}

/**
 * A failure as Python names it, `ValueError: no weather station in Atlantis`, from the span's
 * exception event (OpenInference's status message is the exception's repr followed by the traceback).
 */
function exceptionWords(span: Span): string | undefined {
  const exception = span.events.find((event) => event.name === 'exception');
  const type = exception?.attributes['exception.type'];
  const message = exception?.attributes['exception.message'];
  if (typeof type !== 'string') return undefined;
  const name = type.split('.').at(-1) ?? type;
  return typeof message === 'string' && message !== '' ? `${name}: ${message}` : name;
}

export const langGraphFlavor: LoopFlavor = {
  id: LANGGRAPH_DIALECT_ID,
  title: 'LangGraph',
  explains: {
    pause:
      'A node or a tool of the graph called interrupt(): LangGraph raised GraphInterrupt, saved the thread’s state and ended the run with the interrupt pending (the instrumentation records it as an exception — it is a pause, not an error). A new run on the same thread, invoked with Command(resume={interrupt id: value}), answers it: the interrupted node or tool runs again from its start and interrupt() returns the value.',
    resolutions: {
      respond: 'Answered without running the tool — the resume value made the node or tool return without calling it (a rejection, the caller’s result)',
      restart: 'The tool ran in the answering run — the interrupted node or tool ran again and went on (approved, edited)',
      pending: 'Reused a finished result — a task that completed before the pause is not run again',
      unresolved: 'Left unanswered — its interrupt stays pending on the thread',
    },
    sendSpans:
      'LangGraph records no spans of its own: instrument LangChain with opentelemetry-instrumentation-langchain (LangchainInstrumentor().instrument()) or openinference-instrumentation-langchain, on a TracerProvider exporting OTLP/HTTP to http://127.0.0.1:4747/v1/traces (docs/guides/langgraph.md).',
  },
  claimedBy: { scopes: LANGGRAPH_SCOPES },
  claims: (span) => LANGGRAPH_SCOPES.includes(span.scope.name),
  kindOf: (span) => readerOf(span).kindOf(span),
  labelOf: (span, kind) => readerOf(span).labelOf(span, kind),
  messagesOf: (span) => readerOf(span).messagesOf(span),
  toolOf: (span, index) => readerOf(span).toolOf(span, index),
  pauseOf: langGraphPause,
  errorMessageOf: exceptionWords,
  pausesOfCall: ({ index, spans }) => {
    const pauses: CallPause[] = [];
    for (const span of spans) {
      if (!hasGraphInterrupt(span)) continue;
      const reader = readerOf(span);
      // A task whose tool paused records the tool's interrupt too: the tool span holds it.
      if (index.childrenOf(span).some((child) => reader.kindOf(child) === 'tool' && hasGraphInterrupt(child))) continue;
      const taskCall = toolCallOfTaskInput(reader.taskInputOf(span));
      for (const interrupt of graphInterruptsOf(span)) {
        const callId = callIdInValue(interrupt.value) ?? taskCall?.id;
        pauses.push({ ...pauseOfInterrupt(interrupt, `in the ${reader.nodeNameOf(span)} node`), ...(callId !== undefined ? { callId } : {}) });
      }
    }
    return pauses;
  },
  decorateTool: ({ call, span, index }) => {
    // A tool that wraps another (a reviewed tool calling the plain one): the wrapped tool ran when its span is inside.
    const reader = readerOf(span);
    if (call.status === 'ok' && index.childrenOf(span).some((child) => reader.kindOf(child) === 'tool' && reader.labelOf(child, 'tool') === call.name)) {
      call.runtimeState = LANGGRAPH_STATES.wrappedRan(call.name);
    }
  },
  readAnswers: readLangGraphAnswers,
  linkScope: ({ root }) => {
    const thread = readerOf(root).threadOf(root);
    return thread === undefined ? undefined : `langgraph-thread:${thread}`;
  },
  afterLinking: langGraphAfterLinking,
  words: {
    toolError: LANGGRAPH_STATES.toolError,
    notExecuted: {
      pausedAs: 'not executed',
      metadata: { evidence: 'asked for in the last model call, and no tool span ran it before the run ended (a static breakpoint, interrupt_before, records no interrupt)' },
      evidence: 'message',
    },
    neverRan: LANGGRAPH_STATES.neverRan,
    ranAgain: 'the tool ran in the answering run',
    answeredWithoutSpan: 'answered without a tool span',
  },
};

const rules = langGraphResumeRules(langGraphFlavor);
export const langGraph = loopDialect(rules ? { ...langGraphFlavor, resume: rules } : langGraphFlavor);
