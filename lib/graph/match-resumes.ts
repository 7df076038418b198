import type { ResumeMatch } from '../contract/session';
import { compareIds } from '../spans/span';
import { sameResource, type InterruptedGenerateKey, type ResumeGenerateKey, type TraceLinkKeys } from '../spans/trace-link-keys';

// A match travels to the page (the session route): its one definition is the contract's.
export type { ResumeMatch } from '../contract/session';
/** How a resume was tied to the interrupted generate it answers. */
export type LinkEvidence = ResumeMatch['evidence'];

/** A guess names this many of its alternatives: a thousand identical runs must not make every answer list all the others. */
export const MAX_NAMED_ALTERNATIVES = 3;

/** How many keys of a start-ordered list started at or before `time` (binary search). */
function startedBy(sorted: readonly { startTime: number }[], time: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle].startTime <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

const byStart = <T extends { startTime: number; generateId: string }>(a: T, b: T) => a.startTime - b.startTime || compareIds(a.generateId, b.generateId);

/**
 * The candidates of one resume among a start-ordered list of its group's keys that started no
 * later (`keys[0..end)`): from its resource and not itself; with `byHistory`, only those with its
 * whole conversation; with `byTrace`, only those in its own trace. `keys` is the whole group, or —
 * once the pool is narrowed to the conversation, or to the trace — the group's keys with that
 * conversation or in that trace, in the same order: the same candidates either way, without
 * walking the rest of the group.
 */
interface Pool {
  keys: readonly InterruptedGenerateKey[];
  end: number;
  resume: ResumeGenerateKey;
  byHistory: boolean;
  byTrace: boolean;
}

function inPool(candidate: InterruptedGenerateKey, pool: Pool): boolean {
  const { resume } = pool;
  return (
    candidate.generateId !== resume.generateId &&
    sameResource(candidate.resource, resume.resource) &&
    (!pool.byHistory || candidate.history === resume.history) &&
    (!pool.byTrace || candidate.traceId === resume.traceId)
  );
}

/** A start-ordered list of keys split by `keyOf` (keys it gives none are left out), each part in the list's order. */
function splitKeys(list: readonly InterruptedGenerateKey[], keyOf: (key: InterruptedGenerateKey) => string | undefined): Map<string, InterruptedGenerateKey[]> {
  const parts = new Map<string, InterruptedGenerateKey[]>();
  for (const key of list) {
    const part = keyOf(key);
    if (part === undefined) continue;
    const keys = parts.get(part);
    if (keys) keys.push(key);
    else parts.set(part, [key]);
  }
  return parts;
}

const historyOf = (key: InterruptedGenerateKey) => key.history;
const traceOf = (key: InterruptedGenerateKey) => key.traceId;

/**
 * The parts of start-ordered key lists, each split made on first ask and kept for the rest of the
 * matching: a group by conversation, a group or a conversation by trace. A thousand paused runs
 * of one agent form one group (the OpenAI Agents SDK's link scope is the agent), or — copies of
 * one run — one conversation; a resume whose candidates are its own conversation, or its own
 * trace, looks at those keys, not at the thousand.
 */
function keySplits(): (list: readonly InterruptedGenerateKey[], by: 'history' | 'trace') => Map<string, InterruptedGenerateKey[]> {
  const made = { history: new Map<readonly InterruptedGenerateKey[], Map<string, InterruptedGenerateKey[]>>(), trace: new Map<readonly InterruptedGenerateKey[], Map<string, InterruptedGenerateKey[]>>() };
  return (list, by) => {
    let parts = made[by].get(list);
    if (!parts) made[by].set(list, (parts = splitKeys(list, by === 'history' ? historyOf : traceOf)));
    return parts;
  };
}

/** Whether any key of the pool's prefix is a candidate. */
function anyCandidate(pool: Pool): boolean {
  for (let index = 0; index < pool.end; index++) if (inPool(pool.keys[index], pool)) return true;
  return false;
}

/**
 * `pool` narrowed to the resume's own trace when any candidate is there (its keys then that
 * trace's, the same candidates with fewer keys to walk), else as it is when it has a candidate
 * at all, else undefined.
 */
function settledPool(pool: Pool, split: ReturnType<typeof keySplits>): Pool | undefined {
  const ofTrace = split(pool.keys, 'trace').get(pool.resume.traceId) ?? [];
  const inItsTrace: Pool = { ...pool, keys: ofTrace, end: startedBy(ofTrace, pool.resume.startTime), byTrace: true };
  if (anyCandidate(inItsTrace)) return inItsTrace;
  return anyCandidate(pool) ? pool : undefined;
}

/**
 * The pool a content resume chooses from (rule 2 of `matchResumes`): narrowed to its
 * conversation when any candidate has it, then to its trace when any of those is in it.
 */
function narrowedPool(options: { group: readonly InterruptedGenerateKey[]; split: ReturnType<typeof keySplits>; resume: ResumeGenerateKey }): Pool | undefined {
  const { group, resume, split } = options;
  if (resume.history !== undefined) {
    const keys = split(group, 'history').get(resume.history) ?? [];
    const pool = settledPool({ keys, end: startedBy(keys, resume.startTime), resume, byHistory: true, byTrace: false }, split);
    if (pool) return pool;
  }
  return settledPool({ keys: group, end: startedBy(group, resume.startTime), resume, byHistory: false, byTrace: false }, split);
}

/**
 * Decides which interrupted generate each resume answers (docs/interrupt-model.md §4: genkit
 * records the two as separate traces with no link of its own). The one rule for the graph,
 * sessions and trace lists alike:
 * 1. an OTel span link from the resume to an interrupted generate wins (Loopscope's own
 *    resumes always record one; a link marked as Loopscope's answer link is never overruled,
 *    even when its target is not loaded);
 * 2. otherwise only candidates from the same resource (service name, and instance when both
 *    have one), started no later than the resume, with the same interrupted requests; among
 *    them those whose whole conversation equals the resume's history, when any do; among those,
 *    one in the resume's own trace (a flow that resumes itself), when any is;
 * 3. one answer per interrupt: the nearest earlier candidate not yet answered, else (more
 *    resumes than candidates: alternative answers, drawn as branches) the nearest earlier one.
 * When the content cannot decide between several candidates, the match lists the others.
 * Resumes are matched in start order (linked ones first), so later traces never change how
 * earlier ones were linked.
 */
export function matchResumes(keys: TraceLinkKeys): ResumeMatch[] {
  const byId = new Map<string, InterruptedGenerateKey>();
  const byRequests = new Map<string, InterruptedGenerateKey[]>();
  for (const key of [...keys.interrupted].sort(byStart)) {
    if (byId.has(key.generateId)) continue;
    byId.set(key.generateId, key);
    const list = byRequests.get(key.requests);
    if (list) list.push(key);
    else byRequests.set(key.requests, [key]);
  }
  const answers = new Map<string, number>();
  const claimedByLink = new Set<string>();
  const matches: ResumeMatch[] = [];
  const record = ({ resume, interruptedId, evidence, others = { named: [], count: 0 } }: { resume: ResumeGenerateKey; interruptedId: string; evidence: LinkEvidence; others?: { named: string[]; count: number } }) => {
    answers.set(interruptedId, (answers.get(interruptedId) ?? 0) + 1);
    matches.push({ resumeId: resume.generateId, interruptedId, evidence, couldAlsoAnswer: others.named, alternatives: others.count });
  };

  const linkedTarget = (resume: ResumeGenerateKey) => resume.links?.find((id) => id !== resume.generateId && byId.has(id));
  const resumes = [...keys.resumes].sort(byStart);
  const contentResumes: ResumeGenerateKey[] = [];
  for (const resume of resumes) {
    const target = linkedTarget(resume);
    if (target) {
      claimedByLink.add(target);
      record({ resume, interruptedId: target, evidence: 'link' });
    } else if (!resume.authoritative) contentResumes.push(resume);
  }

  const split = keySplits();
  for (const resume of contentResumes) {
    const group = byRequests.get(resume.requests) ?? [];
    // Only the prefix of a start-ordered list that started no later than the resume counts: the
    // group's, its conversation's or its trace's list, split once for every resume of the group.
    const pool = narrowedPool({ group, resume, split });
    if (!pool) continue;
    // Nearest earlier first; an interrupt not answered yet before one that is.
    let chosen: InterruptedGenerateKey | undefined;
    let nearest: InterruptedGenerateKey | undefined;
    for (let index = pool.end - 1; index >= 0 && chosen === undefined; index--) {
      const candidate = pool.keys[index];
      if (!inPool(candidate, pool)) continue;
      nearest ??= candidate;
      if (!answers.has(candidate.generateId)) chosen = candidate;
    }
    chosen ??= nearest as InterruptedGenerateKey;
    const named: string[] = [];
    let count = 0;
    for (let index = pool.end - 1; index >= 0; index--) {
      const candidate = pool.keys[index];
      if (!inPool(candidate, pool) || candidate === chosen || claimedByLink.has(candidate.generateId)) continue;
      count += 1;
      if (named.length < MAX_NAMED_ALTERNATIVES) named.push(candidate.generateId);
    }
    record({ resume, interruptedId: chosen.generateId, evidence: pool.byHistory ? 'history' : 'requests', others: { named, count } });
  }
  return matches;
}
