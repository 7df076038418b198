import { spanClaimer } from '../runtimes/classify-span';
import { toolCallLookup } from '../loop/loop-model';
import { DIALECTS } from '../runtimes/index';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import { buildSpanIndex, enclosingFlow, type SpanIndex } from '../loop/span-index';
import { compareIds, type Span } from '../spans/span';
import type { TraceLinkKeys } from '../spans/trace-link-keys';
import { graphElements } from './graph-elements';
import { linkResumes } from './link-resumes';
import type { ResumeMatch } from './match-resumes';
import type { GenerateCall, GraphSummary, RunGraph, ToolCall } from './run-graph';

function summarize({ index, generates, standaloneToolCalls }: { index: SpanIndex; generates: GenerateCall[]; standaloneToolCalls: ToolCall[] }): GraphSummary {
  let modelCalls = 0;
  let toolCalls = 0;
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role === 'model') modelCalls += 1;
    else if (role === 'tool') toolCalls += 1;
  }
  const counts = { interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0 };
  const countInterrupts = (calls: readonly ToolCall[]) => {
    for (const call of calls) if (call.status === 'interrupted') counts.interrupts += 1;
  };
  countInterrupts(standaloneToolCalls);
  for (const generate of generates) {
    if (generate.status === 'error') counts.errors += 1;
    countInterrupts(generate.resumeToolCalls);
    for (const turn of generate.turns) countInterrupts(turn.toolCalls);
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
    traces: index.traceCount,
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

/** The spans of a build, indexed, each claimed once by the dialect that reads it and classified by it. */
export function indexSpans(spans: readonly Span[], dialects: readonly RuntimeDialect[] = DIALECTS): SpanIndex {
  return buildSpanIndex(spans, spanClaimer(dialects));
}

/**
 * The top-level calls of a set of spans (in start order), each read by the dialect that
 * claimed its span in the index, the tool calls run outside any call, and their link keys.
 * Spans of several runtimes draw side by side.
 */
export function readGenerates(index: SpanIndex): { generates: GenerateCall[]; standaloneToolCalls: ToolCall[]; keys: TraceLinkKeys } {
  const generates: GenerateCall[] = [];
  const standaloneToolCalls: ToolCall[] = [];
  const keys: TraceLinkKeys = { interrupted: [], resumes: [] };
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role !== 'tool' && role !== 'generate') continue;
    const dialect = index.dialectOf(span);
    if (!dialect || dialect.enclosedByCall(index, span)) continue;
    if (role === 'tool') {
      standaloneToolCalls.push(dialect.readStandaloneTool(index, span));
      continue;
    }
    const read = dialect.readCall({ index, root: span, flowSpanId: enclosingFlow(index, span)?.spanId });
    read.call.runtime = dialect.id;
    generates.push(read.call);
    if (read.interrupted) keys.interrupted.push(read.interrupted);
    if (read.resume) keys.resumes.push(read.resume);
  }
  generates.sort((a, b) => a.startTime - b.startTime || compareIds(a.id, b.id));
  return { generates, standaloneToolCalls, keys };
}

/**
 * Builds the run graph of any set of spans: one or several traces, of one or several
 * runtimes, in any order, with missing parents or open spans. Pure: a fresh graph per call.
 * `matches`: which resume answers which interrupt, when decided with more traces in view than
 * these (a session drawn from the store: `linkTraces(…).matchesOf`); otherwise decided from
 * these spans. `dialects`: the runtimes to read (the registered ones by default).
 */
export function buildRunGraph(spans: readonly Span[], options: { matches?: readonly ResumeMatch[]; dialects?: readonly RuntimeDialect[] } = {}): RunGraph {
  const dialects = options.dialects ?? DIALECTS;
  const index = indexSpans(spans, dialects);
  const { generates, standaloneToolCalls, keys } = readGenerates(index);
  linkResumes({ generates, keys, matches: options.matches });
  const toolCallById = toolCallLookup(generates);
  for (const dialect of dialects) dialect.notesAfterLinking?.(generates, toolCallById);
  const { nodes, edges } = graphElements(generates, standaloneToolCalls);
  return { summary: summarize({ index, generates, standaloneToolCalls }), generates, nodes, edges };
}
