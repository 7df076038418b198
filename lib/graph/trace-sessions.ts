import type { SpanIndex } from '../loop/span-index';
import type { Span } from '../spans/span';
import { summarizeTrace, type TraceSummary } from '../spans/summarize-trace';
import type { TraceLinkKeys } from '../spans/trace-link-keys';
import { indexSpans, readGenerates } from './build-run-graph';
import { matchResumes, type ResumeMatch } from './match-resumes';
import { traceTitle } from './trace-title';

/** What the trace index keeps of a trace's graph, so lists and sessions never re-read traces. */
export interface TraceGraphFacts {
  linkKeys: TraceLinkKeys;
  /** Tool calls that failed (a real error, not an interrupt). */
  failedTools: number;
}

/** The graph facts of one trace's spans (computed when the trace is stored); `index`: the spans' index, when the caller made it already. */
export function traceGraphFacts(spans: readonly Span[], index: SpanIndex = indexSpans(spans)): TraceGraphFacts {
  const { generates, standaloneToolCalls, keys } = readGenerates(index);
  const calls = [...standaloneToolCalls, ...generates.flatMap((generate) => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)])];
  return { linkKeys: keys, failedTools: calls.filter((call) => call.status === 'error').length };
}

/**
 * A captured trace's index entry: its summary plus the graph facts lists and sessions need.
 * The store calls it for every trace of every append, so each span is classified once, in the
 * one span index the facts, the summary and the title all read.
 */
export function summarizeCapturedTrace(traceId: string, spans: readonly Span[]): TraceSummary {
  const index = indexSpans(spans);
  const facts = traceGraphFacts(spans, index);
  const classified = (span: Span) => index.classify(span);
  const summary = summarizeTrace({ traceId, spans, classifySpan: classified });
  return {
    ...summary,
    ...traceTitle({ spans, models: summary.models, classifySpan: classified }),
    linkKeys: facts.linkKeys,
    ...(facts.failedTools > 0 ? { failedTools: facts.failedTools } : {}),
  };
}

type LinkedSummary = Pick<TraceSummary, 'traceId' | 'status' | 'linkKeys'>;

/** How the traces of an index are tied together by resumes (the same matching as the graph's). */
export interface TraceLinks {
  /** The traces connected to `traceId` through interrupts and their answers, itself included, in the summaries' order. */
  sessionOf(traceId: string): string[];
  /** Every session at once (each in the summaries' order, sessions in the order of their first trace): one pass for a list of thousands. */
  sessions(): string[][];
  /**
   * The matches of the resumes in these traces, decided with every trace in view: a page that
   * draws only a session passes them to `buildRunGraph`, so a guess and its alternatives (in
   * traces it does not load) are drawn as the whole store decided them.
   */
  matchesOf(traceIds: readonly string[]): ResumeMatch[];
  /**
   * A trace's status with its answers in view: `answered` when every interrupt it ended with
   * was answered by a resume in another trace (`answeredBy` names those traces); `interrupted`
   * when one still waits — also for a flow that returned `ok` with its generate interrupted.
   */
  statusOf(summary: LinkedSummary): { status: TraceSummary['status']; answeredBy?: string[] };
}

/** Matches every resume of the given traces to the interrupt it answers, once, for sessions and statuses. */
export function linkTraces(summaries: readonly LinkedSummary[]): TraceLinks {
  const keys: TraceLinkKeys = { interrupted: [], resumes: [] };
  for (const summary of summaries) {
    keys.interrupted.push(...(summary.linkKeys?.interrupted ?? []));
    keys.resumes.push(...(summary.linkKeys?.resumes ?? []));
  }
  const traceOf = new Map<string, string>();
  for (const key of [...keys.interrupted, ...keys.resumes]) traceOf.set(key.generateId, key.traceId);
  const neighbours = new Map<string, Set<string>>();
  const answeredBy = new Map<string, string[]>();
  const connect = (a: string, b: string) => {
    if (!neighbours.has(a)) neighbours.set(a, new Set());
    neighbours.get(a)!.add(b);
  };
  const matches = matchResumes(keys);
  for (const match of matches) {
    const resumeTrace = traceOf.get(match.resumeId) as string;
    const interruptedTrace = traceOf.get(match.interruptedId) as string;
    answeredBy.set(match.interruptedId, [...(answeredBy.get(match.interruptedId) ?? []), resumeTrace]);
    connect(resumeTrace, interruptedTrace);
    connect(interruptedTrace, resumeTrace);
  }
  const order = summaries.map((summary) => summary.traceId);
  return {
    sessionOf(traceId) {
      const found = new Set([traceId]);
      const queue = [traceId];
      while (queue.length > 0) {
        for (const next of neighbours.get(queue.shift() as string) ?? []) {
          if (found.has(next)) continue;
          found.add(next);
          queue.push(next);
        }
      }
      return order.filter((id) => found.has(id));
    },
    sessions() {
      const sessionIndex = new Map<string, number>();
      const sessions: string[][] = [];
      for (const traceId of order) {
        if (sessionIndex.has(traceId)) continue;
        const at = sessions.length;
        sessions.push([]);
        const queue = [traceId];
        sessionIndex.set(traceId, at);
        while (queue.length > 0) {
          for (const next of neighbours.get(queue.shift() as string) ?? []) {
            if (sessionIndex.has(next)) continue;
            sessionIndex.set(next, at);
            queue.push(next);
          }
        }
      }
      for (const traceId of order) sessions[sessionIndex.get(traceId) as number].push(traceId);
      return sessions;
    },
    matchesOf(traceIds) {
      const wanted = new Set(traceIds);
      return matches.filter((match) => wanted.has(traceOf.get(match.resumeId) as string));
    },
    statusOf(summary) {
      // A silent key (the call's own spans do not say it paused) counts only once an answer is tied to it.
      const interrupted = (summary.linkKeys?.interrupted ?? []).filter((key) => !key.silent || answeredBy.has(key.generateId));
      if ((summary.status !== 'ok' && summary.status !== 'interrupted') || interrupted.length === 0) return { status: summary.status };
      const answers = interrupted.map((key) => answeredBy.get(key.generateId) ?? []);
      if (answers.some((traces) => traces.length === 0)) return { status: 'interrupted' };
      const elsewhere = [...new Set(answers.flat().filter((traceId) => traceId !== summary.traceId))];
      return elsewhere.length > 0 ? { status: 'answered', answeredBy: elsewhere } : { status: summary.status === 'interrupted' ? 'answered' : 'ok' };
    },
  };
}
