import { dialectOf } from '../runtimes/index';
import { classifySpan as classifyByDialect, type SpanClassification } from '../runtimes/classify-span';
import type { Span } from '../spans/span';
import { compareNanos } from '../spans/span';

/** The model prefix of Loopscope's scripted scenario runs (lib/runner/scenario.ts names them `scripted/<scenario>`). */
const SCRIPTED_MODEL = 'scripted/';

/** What a captured trace is called in the list, and which runtime drew it. */
export interface TraceTitle {
  /** The scenario of a scripted run, else the flow's name, else the root span's name. */
  title: string;
  /** The id of the dialect that claims the root span (`genkit-js`), undefined when none does. */
  runtime?: string;
}

/** The root of a trace as the summary picks it: a span without parent first, else the earliest orphan. */
function rootOf(spans: readonly Span[]): Span | undefined {
  const ids = new Set(spans.map((span) => span.spanId));
  const sorted = [...spans].sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  const roots = sorted.filter((span) => span.parentSpanId === undefined || !ids.has(span.parentSpanId));
  return roots.find((span) => span.parentSpanId === undefined) ?? roots[0];
}

/**
 * A trace's title, computed once when the trace is stored: runs of Loopscope's scenarios are
 * named by the scenario (`scripted/<scenario>` is their model), a flow by its name, anything
 * else by its root span's name — so the list is not a column of "generate". `classifySpan`:
 * the dialects' by default; a caller that classified the spans already passes its own.
 */
export function traceTitle({ spans, models, classifySpan = classifyByDialect }: { spans: readonly Span[]; models: readonly string[]; classifySpan?: (span: Span) => SpanClassification }): TraceTitle {
  const scripted = models.find((model) => model.startsWith(SCRIPTED_MODEL));
  const root = rootOf(spans);
  const runtime = root ? dialectOf(root)?.id : undefined;
  const withRuntime = (title: string): TraceTitle => (runtime ? { title, runtime } : { title });
  if (scripted && scripted.length > SCRIPTED_MODEL.length) return withRuntime(scripted.slice(SCRIPTED_MODEL.length));
  if (!root) return withRuntime('empty trace');
  const classification = classifySpan(root);
  if (classification.role === 'flow') return withRuntime(classification.label);
  return withRuntime(root.name || classification.label);
}
