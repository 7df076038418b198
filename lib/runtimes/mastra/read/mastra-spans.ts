/**
 * Mastra's own span kinds, as `@mastra/otel-exporter` records them (docs/guides/mastra.md): every
 * span carries Mastra's type in `mastra.span.type` — `agent_run` (one run of an agent: a call),
 * `model_generation` (the model loop of a run), `model_step` (one step: the model's answer and
 * the tools it asked for — the loop's model call), `model_inference` (the model request of a
 * step), `model_chunk` (one streamed chunk, an approval request among them), `tool_call` /
 * `mcp_tool_call` (a tool), `processor_run` (an input or output processor), `workflow_run`.
 * Mastra's span names differ by exporter version (`invoke_agent`, `chat`, `agent_step`, or its
 * own `agent run: '…'`, `step: 0`); its types do not, so the types decide.
 */
import { isObject } from '../../../spans/json-value';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { AttributeValue, Span } from '../../../spans/span';
import { genAiLoopKind } from '../../genai-loop/genai-span-reading';
import type { LoopSpanKind } from '../../genai-loop/loop-flavor';
import type { SpanIndex } from '../../../loop/span-index';

/** Mastra's attributes beyond the GenAI conventions. */
export const MASTRA = {
  spanType: 'mastra.span.type',
  runId: 'mastra.metadata.runId',
  resumedFromSpanId: 'mastra.metadata.resumedFromSpanId',
  runInput: 'mastra.agent_run.input',
  runOutput: 'mastra.agent_run.output',
  stepInput: 'mastra.model_step.input',
  stepOutput: 'mastra.model_step.output',
  stepIndex: 'mastra.model_step.step_index',
  modelMetadata: 'mastra.metadata.modelMetadata',
  chunkOutput: 'mastra.model_chunk.output',
  /** The agent's id (`Agent({ id })`), beside the conventions' `gen_ai.agent.name`. */
  agentId: 'gen_ai.agent.id',
} as const;

/** The instrumentation scope of Mastra's OTel exporter. */
export const MASTRA_SCOPE = '@mastra/otel-exporter';

const KINDS: Readonly<Record<string, LoopSpanKind>> = {
  agent_run: 'call',
  model_step: 'model',
  tool_call: 'tool',
  mcp_tool_call: 'tool',
  workflow_run: 'flow',
};

/** The span's Mastra type (`agent_run`, `model_step`, …), lower-cased; undefined for a span without one. */
export function mastraType(span: Span): string | undefined {
  const type = span.attributes[MASTRA.spanType];
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/** A recorded JSON attribute, parsed; its text when it is not JSON; undefined when absent. */
export function recordedValue(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value;
  const parsed = tryParseJsonLimited(value);
  return parsed.ok ? parsed.value : value;
}

/** A recorded attribute that is a JSON object, else undefined. */
export function recordedObject(value: AttributeValue | undefined): Record<string, unknown> | undefined {
  const parsed = recordedValue(value);
  return isObject(parsed) ? parsed : undefined;
}

/**
 * The step an answering run re-enters: Mastra continues the step its run paused in — it runs the
 * answered tool without calling the model again — and records it as a `model_step` span of the
 * answering run with the step's output and no input. It is the paused run's model call, not one
 * of its own.
 */
export function isContinuedStep(span: Span): boolean {
  return mastraType(span) === 'model_step' && span.attributes[MASTRA.resumedFromSpanId] !== undefined && span.attributes[MASTRA.stepInput] === undefined;
}

/** A Mastra span's part in the loop, by its Mastra type (the GenAI operation only where it has none). */
export function mastraKindOf(span: Span): LoopSpanKind {
  const type = mastraType(span);
  if (type === undefined) return genAiLoopKind(span);
  if (isContinuedStep(span)) return 'other';
  return KINDS[type] ?? 'other';
}

/** The run that answers a pause (it names the span it resumed from): a run of its own, though Mastra nests it in the paused run's trace. */
export function isAnsweringRun(span: Span): boolean {
  return mastraType(span) === 'agent_run' && typeof span.attributes[MASTRA.resumedFromSpanId] === 'string';
}

/** The descendants of a span, stopping at other runs (an answering run nested under it). */
export function descendantsOf(index: SpanIndex, span: Span): Span[] {
  const found: Span[] = [];
  const stack = [...index.childrenOf(span)];
  const seen = new Set<Span>([span]);
  while (stack.length > 0) {
    const next = stack.pop() as Span;
    if (seen.has(next) || mastraType(next) === 'agent_run') continue;
    seen.add(next);
    found.push(next);
    stack.push(...index.childrenOf(next));
  }
  return found;
}

/** The run (`agent_run` span) a span belongs to, walking its parents; undefined when its chain is broken first. */
export function runOf(index: SpanIndex, span: Span): Span | undefined {
  let current: Span | undefined = span;
  const seen = new Set<Span>();
  while (current && !seen.has(current)) {
    if (mastraType(current) === 'agent_run') return current;
    seen.add(current);
    current = index.parentOf(current);
  }
  return undefined;
}
