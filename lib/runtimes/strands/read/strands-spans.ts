/**
 * What Strands Agents' spans hold, in every content mode its tracer has (docs/guides/strands.md):
 * the OTel GenAI conventions' messages as span attributes or as
 * `gen_ai.client.inference.operation.details` events (with the opt-in), or Strands' own
 * per-message events (without it: strands-content.ts). Spans: `invoke_agent <agent>` (a call),
 * `execute_event_loop_cycle` (one turn of the loop, around its model and tool spans), `chat` (a
 * model call), `execute_tool <tool>` (a tool, with its tool use id in `gen_ai.tool.call.id`).
 */
import type { Span } from '../../../spans/span';
import { genAiMessagesOf, genAiToolOf } from '../../genai-loop/genai-span-reading';
import type { LoopMessages, LoopPause, LoopSpanKind, LoopTool } from '../../genai-loop/loop-flavor';
import { GEN_AI, genAiContent, OPERATION_DETAILS_EVENT } from '../../otel-genai/read/genai-attributes';
import type { SpanValues } from '../../../loop/runtime-dialect';
import { CHOICE_EVENT, hasLegacyContent, legacyMessages, parsedOrText, TOOL_MESSAGE_EVENT } from './strands-content';

/** Strands' tool status attribute (`success` / `error`), written when a tool returns. */
const TOOL_STATUS = 'gen_ai.tool.status';

/** Whether the span's content follows the GenAI conventions (attributes or operation-details events). */
function hasGenAiContent(span: Span): boolean {
  return span.attributes[GEN_AI.inputMessages] !== undefined || span.attributes[GEN_AI.outputMessages] !== undefined || span.events.some((event) => event.name === OPERATION_DETAILS_EVENT);
}

/** A call or model span's messages, whichever way Strands recorded them. */
export function strandsMessagesOf(span: Span): LoopMessages {
  const conventions = genAiMessagesOf(span);
  if (hasGenAiContent(span) || !hasLegacyContent(span)) return conventions;
  return { ...conventions, ...legacyMessages(span) };
}

function eventAttribute(span: Span, options: { event: string; key: string }) {
  return span.events.find((event) => event.name === options.event && event.attributes[options.key] !== undefined)?.attributes[options.key];
}

/** A tool span's fields: the conventions' attributes, else (no opt-in) its call and result events. */
export function strandsToolOf(span: Span): LoopTool {
  const tool = genAiToolOf(span);
  return {
    ...tool,
    input: tool.input ?? parsedOrText(eventAttribute(span, { event: TOOL_MESSAGE_EVENT, key: 'content' })),
    output: tool.output ?? parsedOrText(eventAttribute(span, { event: CHOICE_EVENT, key: 'message' })),
  };
}

/** Whether a tool span recorded a result, in any mode (the attribute, the operation-details output, the legacy choice). */
function recordedResult(span: Span): boolean {
  return span.attributes[TOOL_STATUS] !== undefined || span.attributes[GEN_AI.toolResult] !== undefined || genAiContent(span, GEN_AI.outputMessages) !== undefined || eventAttribute(span, { event: CHOICE_EVENT, key: 'message' }) !== undefined;
}

/**
 * A tool span that ended without failing and recorded no result and no status: the tool
 * called `tool_context.interrupt` (Strands ends the span as it unwinds, status OK). Which
 * interrupt, and its reason, only the agent span's answer says (strands-interrupts.ts).
 */
export function strandsToolPause(span: Span, kind: LoopSpanKind): LoopPause | undefined {
  if (kind !== 'tool' || span.status.code === 2 || recordedResult(span)) return undefined;
  return {
    pausedAs: 'interrupt (tool_context.interrupt)',
    metadata: { evidence: 'the tool span ended with no result and no gen_ai.tool.status' },
    evidence: 'result',
  };
}

/** What went in and came out of a span for the detail panel: the conventions' attributes or events, else the legacy events. */
export function strandsSpanValues(span: Span, kind: LoopSpanKind): SpanValues | undefined {
  if (kind === 'call' || kind === 'model') {
    const input = genAiContent(span, GEN_AI.inputMessages);
    const output = genAiContent(span, GEN_AI.outputMessages);
    if (input !== undefined || output !== undefined) return { input, output, attributeKeys: [GEN_AI.inputMessages, GEN_AI.outputMessages].filter((key) => span.attributes[key] !== undefined) };
    const legacy = legacyMessages(span);
    return { input: JSON.stringify(legacy.input.messages), output: JSON.stringify(legacy.output.messages), attributeKeys: [] };
  }
  if (kind === 'tool') {
    const input = span.attributes[GEN_AI.toolArguments] ?? eventAttribute(span, { event: TOOL_MESSAGE_EVENT, key: 'content' });
    const output = span.attributes[GEN_AI.toolResult] ?? eventAttribute(span, { event: CHOICE_EVENT, key: 'message' });
    return { input, output, attributeKeys: [GEN_AI.toolArguments, GEN_AI.toolResult].filter((key) => span.attributes[key] !== undefined) };
  }
  return undefined;
}
