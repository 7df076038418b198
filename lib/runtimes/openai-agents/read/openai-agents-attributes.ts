/**
 * What the OpenAI Agents SDK's GenAI instrumentation (`opentelemetry-instrumentation-openai-agents`,
 * `OpenAIAgentsInstrumentor`) records beyond the OTel GenAI conventions (docs/guides/openai-agents.md,
 * "What its spans record"): its scope, and Traceloop's span kind (`workflow` on the `Agent Workflow`
 * root of a run started from input).
 */
import type { Span } from '../../../spans/span';

/** The instrumentation scope of every span it records. */
export const OPENAI_AGENTS_SCOPE = 'opentelemetry.instrumentation.openai_agents';

/** Traceloop's kind of span: `workflow`, `agent`, `tool`. */
export const TRACELOOP_SPAN_KIND = 'traceloop.span.kind';

/** True for a span the OpenAI Agents instrumentation recorded. */
export function isOpenAiAgentsSpan(span: Span): boolean {
  return span.scope.name === OPENAI_AGENTS_SCOPE;
}
