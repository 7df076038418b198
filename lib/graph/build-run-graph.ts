import type { Span } from '../trace/span';
import type { TraceLinkKeys } from '../trace/trace-link-keys';
import { buildGenerateCall, buildToolCall } from './build-generate-call';
import { graphElements } from './graph-elements';
import { interruptedKeyOf, resumeKeyOf } from './link-keys';
import { linkResumes } from './link-resumes';
import type { ResumeMatch } from './match-resumes';
import type { GenerateCall, GraphSummary, RunGraph, ToolCall } from './run-graph';
import { buildSpanIndex, enclosingFlow, isNestedGenerate, type SpanIndex } from './span-index';

function summarize(index: SpanIndex, generates: GenerateCall[], standaloneToolCalls: ToolCall[]): GraphSummary {
  const traces = new Set<string>();
  let modelCalls = 0;
  let toolCalls = 0;
  for (const span of index.spans) {
    traces.add(span.traceId);
    const role = index.classify(span).role;
    if (role === 'model') modelCalls += 1;
    else if (role === 'tool') toolCalls += 1;
  }
  const counts = { interrupts: standaloneToolCalls.filter((call) => call.status === 'interrupted').length, responds: 0, restarts: 0, pendingReused: 0, errors: 0 };
  for (const generate of generates) {
    if (generate.status === 'error') counts.errors += 1;
    const calls = [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)];
    counts.interrupts += calls.filter((call) => call.status === 'interrupted').length;
    for (const resolution of generate.resume?.resolutions ?? []) {
      if (resolution.kind === 'respond') counts.responds += 1;
      else if (resolution.kind === 'restart') counts.restarts += 1;
      else if (resolution.kind === 'pending') counts.pendingReused += 1;
    }
  }
  // Causal order: a resume always starts after the generate it answers, so start time orders them.
  const last = generates[generates.length - 1];
  const finishReason = last ? (last.status === 'error' ? 'error' : (last.finishReason ?? null)) : null;
  return {
    traces: traces.size,
    generates: generates.length,
    modelCalls,
    toolCalls,
    interrupts: counts.interrupts,
    responds: counts.responds,
    restarts: counts.restarts,
    pendingReused: counts.pendingReused,
    errors: counts.errors,
    finishReason,
  };
}

/** True when a span has a generate among its ancestors (or its path says so). */
function insideGenerate(index: SpanIndex, span: Span): boolean {
  for (let current = index.parentOf(span), steps = 0; current && steps < 10_000; current = index.parentOf(current), steps++) {
    if (index.classify(current).role === 'generate') return true;
  }
  const path = span.attributes['genkit:path'];
  return typeof path === 'string' && /\{generate,t:(util|action)/.test(path);
}

/** The top-level generate calls of a set of spans (in start order), the tool calls run outside any generate, and their link keys. */
export function readGenerates(index: SpanIndex): { generates: GenerateCall[]; standaloneToolCalls: ToolCall[]; keys: TraceLinkKeys } {
  const generates: GenerateCall[] = [];
  const standaloneToolCalls: ToolCall[] = [];
  const keys: TraceLinkKeys = { interrupted: [], resumes: [] };
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role === 'tool' && !insideGenerate(index, span)) standaloneToolCalls.push(buildToolCall(index, span));
    if (role !== 'generate' || isNestedGenerate(index, span)) continue;
    const { call, input, output } = buildGenerateCall(index, span, enclosingFlow(index, span)?.spanId);
    generates.push(call);
    const interrupted = interruptedKeyOf({ call, root: span, output });
    if (interrupted) keys.interrupted.push(interrupted);
    const resume = resumeKeyOf({ call, root: span, input });
    if (resume) keys.resumes.push(resume);
  }
  generates.sort((a, b) => a.startTime - b.startTime || a.id.localeCompare(b.id));
  return { generates, standaloneToolCalls, keys };
}

/**
 * Builds the run graph of any set of spans: one or several traces, in any order, with
 * missing parents or open spans. Pure: a fresh graph per call. `matches`: which resume
 * answers which interrupt, when decided with more traces in view than these (a session
 * drawn from the store: `linkTraces(…).matchesOf`); otherwise decided from these spans.
 */
export function buildRunGraph(spans: readonly Span[], options: { matches?: readonly ResumeMatch[] } = {}): RunGraph {
  const index = buildSpanIndex(spans);
  const { generates, standaloneToolCalls, keys } = readGenerates(index);
  linkResumes({ generates, keys, matches: options.matches });
  const { nodes, edges } = graphElements(generates, standaloneToolCalls);
  return { summary: summarize(index, generates, standaloneToolCalls), generates, nodes, edges };
}
