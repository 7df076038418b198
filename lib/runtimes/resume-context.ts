import { LoopscopeError } from '../errors';
import { spanClaimer } from './classify-span';
import { dialectOf, DIALECTS } from './index';
import { buildSpanIndex } from '../loop/span-index';
import type { ResumeContext } from '../loop/resume-model';
import type { Span } from '../spans/span';
import { buildRunGraph } from '../graph/build-run-graph';
import type { RuntimeDialect } from '../loop/runtime-dialect';

export type { PendingRequest, RecordedToolDefinition, ResumeContext } from '../loop/resume-model';

/**
 * The context to resume one interrupted call of any loaded trace — the given one
 * (`generateSpanId`), else the last — rebuilt by the dialect that recorded it (its history, the
 * tools it offered, the requests and where each stands). The calls are read as the graph reads
 * them, linked with every loaded trace: a pause only its answer shows (Google ADK's
 * `request_confirmation`) is known only then. A deep copy: nothing the caller does with it
 * changes the loaded spans. `dialects`: the runtimes to read (the registered ones by default).
 * @throws LoopscopeError FAILED_PRECONDITION when there is no interrupted call (saying how many
 *   spans no registered runtime reads), or its runtime cannot be resumed here.
 */
export function resumeContextFrom(spans: readonly Span[], options: { generateSpanId?: string; dialects?: readonly RuntimeDialect[] } = {}): ResumeContext {
  const { generateSpanId, dialects = DIALECTS } = options;
  const paused = buildRunGraph(spans, { dialects }).generates.filter((generate) => generate.status === 'interrupted' && (generateSpanId === undefined || generate.spanId === generateSpanId));
  // The graph's calls are in start order: the last paused one is answered by default.
  const call = paused.at(-1);
  const root = call ? spans.find((span) => span.traceId === call.traceId && span.spanId === call.spanId) : undefined;
  if (!call || !root) {
    if (generateSpanId) throw new LoopscopeError('FAILED_PRECONDITION', `Span ${generateSpanId} is not an interrupted generate.`);
    const unread = spans.filter((span) => !dialectOf(span, dialects)).length;
    // Spans of a runtime that is not registered read as nothing: say so, rather than only "no pause".
    const hint = unread > 0 ? ` (${unread} of their ${spans.length} spans are read by no registered runtime)` : '';
    throw new LoopscopeError('FAILED_PRECONDITION', `These spans hold no interrupted generate to resume${hint}.`);
  }
  const dialect = dialectOf(root, dialects);
  if (!dialect?.resume) throw new LoopscopeError('FAILED_PRECONDITION', `Calls recorded by ${dialect?.title ?? 'this runtime'} cannot be resumed here yet.`);
  const index = buildSpanIndex(spans.filter((span) => span.traceId === root.traceId), spanClaimer(dialects));
  return dialect.resume.contextOfCall ? dialect.resume.contextOfCall({ root, index, call }) : dialect.resume.contextOf(root, index);
}
