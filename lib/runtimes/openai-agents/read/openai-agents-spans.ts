/**
 * The OpenAI Agents SDK's spans in the loop, in its words (docs/guides/openai-agents.md): the
 * `Agent Workflow` root around a run started from input is a workflow; a failed span's status
 * message is a Python dict's repr (`{'message': 'Error running tool', 'data': {'tool_name': …,
 * 'error': …}}`), read as `message: error`; and the call waiting for an approval
 * (`needs_approval`) has a tool span with its arguments, **no result** and status OK although the
 * tool never ran — the only sign of the pause (the interruption and its ids are in no span).
 */
import type { Span } from '../../../spans/span';
import { genAiLoopKind } from '../../genai-loop/genai-span-reading';
import type { LoopPause, LoopSpanKind } from '../../genai-loop/loop-flavor';
import { GEN_AI } from '../../otel-genai/read/genai-attributes';
import { readPythonRepr } from '../../python-values/python-repr';
import { isObject } from '../../../spans/json-value';
import { TRACELOOP_SPAN_KIND } from './openai-agents-attributes';

/** The SDK's words for its pause, shown as `paused: <words>`. */
export const APPROVAL_REQUIRED = 'approval required (needs_approval)';

/** A span's part in the loop: the conventions' operations, and the `Agent Workflow` root as a workflow. */
export function agentsKindOf(span: Span): LoopSpanKind {
  const kind = genAiLoopKind(span);
  if (kind === 'other' && span.attributes[TRACELOOP_SPAN_KIND] === 'workflow') return 'flow';
  return kind;
}

/**
 * A tool span that ended OK with its arguments and without a result: the SDK stopped the call for
 * an approval (the instrumentation records a tool's output whenever it is not None, and both
 * only when content is captured — without arguments nothing tells). Nothing else marks it.
 */
export function agentsPauseOf(span: Span): LoopPause | undefined {
  if (span.endTimeUnixNano === undefined || span.status.code !== 1 || genAiLoopKind(span) !== 'tool') return undefined;
  if (span.attributes[GEN_AI.toolArguments] === undefined || span.attributes[GEN_AI.toolResult] !== undefined) return undefined;
  return {
    pausedAs: APPROVAL_REQUIRED,
    metadata: { waitingFor: 'state.approve(…) or state.reject(…)', evidence: 'its tool span ended OK with no result, and no model call followed' },
    evidence: 'result',
  };
}

/** A failed span's error as the SDK wrote it: `message: error` from the status message's Python dict, else the message as it is. */
export function agentsErrorMessageOf(span: Span): string | undefined {
  const text = span.status.message;
  if (!text || !text.startsWith('{')) return undefined;
  const read = readPythonRepr(text);
  if (!read.ok || !isObject(read.value)) return undefined;
  const { message, data } = read.value;
  const error = isObject(data) ? data.error : undefined;
  if (typeof message !== 'string') return undefined;
  return typeof error === 'string' ? `${message}: ${error}` : message;
}
