/**
 * LangGraph's own words as its instrumentations record them (langgraph 1.2, LangChain callbacks
 * through opentelemetry-instrumentation-langchain 0.62 or openinference-instrumentation-langchain
 * 0.1: docs/guides/langgraph.md): the two tracers, the exception a pause raises, the input a
 * `Command(resume=…)` run records, LangChain's human-in-the-loop decisions (`approve`, `edit`,
 * `reject`, `respond`) when an app's resume values use them, and the words the graph shows.
 */
import { isObject } from '../../../spans/json-value';
import type { RuntimeState } from '../../../loop/loop-model';

/** opentelemetry-instrumentation-langchain (OpenLLMetry): the OTel GenAI conventions plus `traceloop.*`. */
export const TRACELOOP_SCOPE = 'opentelemetry.instrumentation.langchain';
/** openinference-instrumentation-langchain: OpenInference's conventions. */
export const OPENINFERENCE_SCOPE = 'openinference.instrumentation.langchain';

export const TRACELOOP = {
  spanKind: 'traceloop.span.kind',
  entityName: 'traceloop.entity.name',
  entityInput: 'traceloop.entity.input',
  taskInput: 'gen_ai.task.input',
} as const;

/** The exception LangGraph raises to pause a run at `interrupt()` (recorded as `exception.type`). */
export const GRAPH_INTERRUPT = /(^|\.)GraphInterrupt$/;

/** An interrupt id (`xxh3_128` hex digest): how LangGraph tells a resume map from a resume value. */
export const INTERRUPT_ID = /^[0-9a-f]{32}$/;

/** LangChain's human-in-the-loop decision types, as an app's resume values may carry them (`{"type": "approve"}`). */
export type HitlDecision = 'approve' | 'edit' | 'reject' | 'respond';

/** The decision a resume value states in LangChain's vocabulary, if it does. */
export function hitlDecisionOf(value: unknown): { type: HitlDecision; message?: string; args?: unknown; result?: unknown } | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const type = value.type === 'accept' ? 'approve' : value.type === 'response' ? 'respond' : value.type;
  if (type !== 'approve' && type !== 'edit' && type !== 'reject' && type !== 'respond') return undefined;
  return {
    type,
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
    ...('args' in value ? { args: value.args } : {}),
    ...('result' in value ? { result: value.result } : {}),
  };
}

export const LANGGRAPH_STATES = {
  toolError: { code: 'tool-error', words: 'tool error — the ToolNode gave the model the error (handle_tool_errors); the run went on' } satisfies RuntimeState,
  wrappedRan: (name: string): RuntimeState => ({ code: 'ran-wrapped-tool', words: `ok — the ${name} it wraps ran` }),
  neverRan: { code: 'not-run', words: 'never ran — the run failed first' } satisfies RuntimeState,
} as const;

/** How a `Command(resume=…)` answered an interrupt, in LangGraph's words (and LangChain's decisions, when the value uses them). */
export const LANGGRAPH_RESOLUTIONS = {
  approved: 'approved — the tool ran',
  edited: 'edited — the tool ran with new arguments',
  rejected: (message?: string) => (message ? `denied (reject): ${message}` : 'denied (reject)'),
  responded: 'answered with the caller’s result',
  resumed: (value: string) => `resumed with ${value}`,
  noToolSpan: 'no tool span after it: the tool did not run',
  wrapperOnly: 'the tool returned it; the tool it wraps did not run',
} as const;
