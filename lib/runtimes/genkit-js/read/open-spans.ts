/**
 * genkit's open spans (started, not ended): which of them is a tool executing, and how one that
 * Loopscope must end itself is ended in genkit's shape.
 */
import { TOOL_REF_ATTRIBUTE } from '../../../spans/loopscope-attributes';
import type { AttributeValue, Span } from '../../../spans/span';
import type { OpenSpanClosing, OpenSpanEnding, RunningTool } from '../../../loop/runtime-dialect';
import { spanRole } from './classify-span';

const text = (value: AttributeValue | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * A genkit tool action (`tool`, or genkit Go's and multipart tools' `tool.v2`) that started:
 * genkit names its span after the tool; the runner's start notice adds the request's ref.
 */
export function genkitRunningTool(span: Span): RunningTool | undefined {
  if (spanRole(span) !== 'tool') return undefined;
  const ref = text(span.attributes[TOOL_REF_ATTRIBUTE]);
  return { name: text(span.attributes['genkit:name']) ?? span.name, ...(ref !== undefined ? { ref } : {}) };
}

/**
 * genkit writes `genkit:name` and `genkit:state` only when a span ends, and a span that failed —
 * an abort included — ends `genkit:state = error` with an error status: a stopped span ends the
 * same, its message saying it was stopped.
 */
export function closeGenkitOpenSpan(span: Span, ending: OpenSpanEnding): OpenSpanClosing {
  return {
    attributes: { 'genkit:name': text(span.attributes['genkit:name']) ?? span.name, 'genkit:state': 'error' },
    status: { code: 2, message: ending.message },
  };
}
