/**
 * Open spans (started, not ended) by the dialect that claims them: which one is a tool
 * executing, and how Loopscope ends one it has to end itself — when a runner dies, a run ends
 * around a tool that never settled, or the user stops a run — in the runtime's own shape (a
 * genkit span with `genkit:state`, an AI SDK span with the GenAI conventions' `error.type`).
 * The server's ledger of a runner's open spans and the runner's own span reporter both ask here.
 */
import { openSpanFromStart } from '../contract/open-span';
import type { SpanStartEvent } from '../contract/span-start';
import { CLOSED_BY_ATTRIBUTE } from '../spans/loopscope-attributes';
import type { Span } from '../spans/span';
import { dialectOf, DIALECTS } from './index';
import type { OpenSpanClosing, OpenSpanEnding, RunningTool, RuntimeDialect } from '../loop/runtime-dialect';

export type { OpenSpanClosing, OpenSpanEnding, RunningTool };

/**
 * Who ended a span for its runtime (`loopscope:closed-by`): the server when the runner died
 * (`runner-died`), the runner when the run ended with the span open (`run-ended`: a tool past
 * its time limit), or either when the user stopped the run (`run-stopped`).
 */
export type ClosedBy = 'runner-died' | 'run-ended' | 'run-stopped';

/** The tool an open span executes, by its dialect; undefined for any other span, or one no dialect claims. */
export function runningToolOf(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): RunningTool | undefined {
  return dialectOf(span, dialects)?.runningTool(span);
}

/** True when the tool is one of `paused` (the same tool and request): paused before its code runs, not executing. */
export function isPaused(tool: RunningTool, paused: readonly RunningTool[]): boolean {
  return paused.some((candidate) => candidate.name === tool.name && candidate.ref === tool.ref);
}

/** What ends an open span: its dialect's attributes and status, or only the error status for a span no dialect claims. */
export function openSpanClosing({ span, ending, dialects = DIALECTS }: { span: Span; ending: OpenSpanEnding; dialects?: readonly RuntimeDialect[] }): OpenSpanClosing {
  return dialectOf(span, dialects)?.closeOpenSpan(span, ending) ?? { attributes: {}, status: { code: 2, message: ending.message } };
}

/**
 * A span that started and never ended, ended here: it keeps the name and the attributes its
 * start carried, gets what its dialect sets on a span that failed or was stopped, ends at
 * `endTimeUnixNano` (never before it started: two processes' clocks), and says that Loopscope,
 * not the runtime, ended it (`loopscope:closed-by`).
 */
export function closedSpanFromStart(options: { event: SpanStartEvent; ending: OpenSpanEnding; closedBy: ClosedBy; endTimeUnixNano: string; dialects?: readonly RuntimeDialect[] }): Span {
  const { event, ending, closedBy } = options;
  const span = openSpanFromStart(event);
  const closing = openSpanClosing({ span, ending, dialects: options.dialects });
  for (const [key, value] of Object.entries(closing.attributes)) span.attributes[key] = value;
  span.attributes[CLOSED_BY_ATTRIBUTE] = closedBy;
  const end = BigInt(options.endTimeUnixNano) > BigInt(event.startTimeUnixNano) ? options.endTimeUnixNano : event.startTimeUnixNano;
  return { ...span, endTimeUnixNano: end, status: { ...closing.status } };
}
