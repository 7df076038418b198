/**
 * Reads the replayable chain out of any set of spans (one or several traces), in the words of the
 * runtime that recorded it: each driver with replay support reads its own calls
 * (lib/runtimes/runtime-driver.ts `ReplaySupport.read`); when the spans hold calls of several
 * runtimes, the driver of highest rank is read and the others are left out. The graph's linking
 * (lib/graph/match-resumes.ts — the one rule for which answer continues which paused call) says
 * which step each resume or answering call continues; it is built only when there is one to place.
 */
import { LoopscopeError } from '../errors';
import { buildRunGraph, indexSpans } from '../graph/build-run-graph';
import type { GenerateResume } from '../loop/loop-model';
import type { Span } from '../spans/span';
import { RUNTIME_DRIVERS } from './drivers';
import { dialectOf, dialectTitle, DIALECTS } from './index';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import type { RuntimeDriver } from './runtime-driver';

/** A recording of any runtime Loopscope replays, named by its runtime (the driver says what `recording` is). */
export interface AnyRecording {
  runtime: string;
  recording: unknown;
}

/**
 * `dialects` and `drivers`: the runtimes to read and replay with (the registered ones by default;
 * a test's `withRuntime(…)`).
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay (naming the runtimes
 *   whose calls cannot be replayed, or how many spans no registered runtime reads), or a call did
 *   not record what a replay needs.
 */
export function readReplayable(spans: readonly Span[], options: { dialects?: readonly RuntimeDialect[]; drivers?: readonly RuntimeDriver[] } = {}): AnyRecording {
  const { dialects = DIALECTS, drivers = RUNTIME_DRIVERS } = options;
  const index = indexSpans(spans, dialects);
  const present = new Set<RuntimeDriver>();
  const unreplayable = new Set<string>();
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if (role !== 'generate' && role !== 'tool') continue;
    const dialect = dialectOf(span, dialects);
    if (!dialect) continue;
    const driver = drivers.find((candidate) => candidate.runtime === dialect.id && candidate.replay);
    if (!driver) unreplayable.add(dialect.title);
    else if (role === 'generate' || driver.replay!.standaloneTools) present.add(driver);
  }
  const replayable = drivers.filter((driver) => driver.replay).sort((a, b) => b.replay!.rank - a.replay!.rank);
  const chosen = replayable.find((driver) => present.has(driver));
  if (!chosen && unreplayable.size > 0) {
    const titles = replayable.map((driver) => dialectTitle(driver.runtime, dialects));
    throw new LoopscopeError('FAILED_PRECONDITION', `Replay is not supported yet for ${[...unreplayable].join(' and ')} traces: only ${joinTitles(titles)} calls can be replayed.`);
  }
  // No call of any registered runtime, and spans none reads: they may be a runtime's that is not registered.
  const unread = chosen ? 0 : index.spans.filter((span) => !dialectOf(span, dialects)).length;
  if (unread > 0) {
    throw new LoopscopeError('FAILED_PRECONDITION', `These spans hold no call of a registered runtime to replay: ${unread} of their ${index.spans.length} spans are read by no registered runtime.`);
  }
  // Nothing replayable at all: the first reader says what it misses.
  const driver = chosen ?? replayable[0];
  let graph: ReturnType<typeof buildRunGraph> | undefined;
  const resumeOf = (generateId: string): GenerateResume | undefined => {
    graph ??= buildRunGraph(spans, { dialects });
    return graph.generates.find((generate) => generate.id === generateId)?.resume;
  };
  return { runtime: driver.runtime, recording: driver.replay!.read({ index, resumeOf }) };
}

/** `a, b and c`. */
function joinTitles(titles: readonly string[]): string {
  return titles.length <= 1 ? (titles[0] ?? '') : `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}`;
}
