import type { TraceLinkKeys } from '../trace/trace-link-keys';
import { matchResumes, type ResumeMatch } from './match-resumes';
import type { GenerateCall } from './run-graph';

/**
 * Links each resume to the interrupted generate it answered — across traces — by the one
 * rule of `matchResumes` (span link, then whole history, resource, nearest unanswered), or by
 * the given matches when they were decided with more traces in view, then ties each of its
 * resolutions to the interrupted or parked tool call it resolves.
 * Mutates the given calls (they are fresh objects of this build).
 */
export function linkResumes(options: { generates: readonly GenerateCall[]; keys: TraceLinkKeys; matches?: readonly ResumeMatch[] }): void {
  const byId = new Map<string, GenerateCall>();
  for (const generate of options.generates) byId.set(generate.id, generate);
  // Matches decided with more traces in view (the whole store, for a session) win over the loaded ones'.
  const matches = (options.matches ?? matchResumes(options.keys))
    .map((match) => ({ match, resume: byId.get(match.resumeId), original: byId.get(match.interruptedId) }))
    // Resolutions are tied in start order: a dialect's notes after linking read what earlier resumes did.
    .sort((a, b) => (a.resume?.startTime ?? 0) - (b.resume?.startTime ?? 0));
  for (const { match, resume, original } of matches) {
    if (!resume?.resume || !original) continue;
    resume.resume.answersGenerateId = original.id;
    resume.resume.evidence = match.evidence;
    if (match.alternatives > 0) {
      resume.resume.couldAlsoAnswer = match.couldAlsoAnswer;
      resume.resume.alternatives = match.alternatives;
    }
    const lastTurn = original.turns[original.turns.length - 1];
    // Calls without a ref share name and ref: each resolution takes the next unused one.
    const unused = [...lastTurn.toolCalls];
    for (const resolution of resume.resume.resolutions) {
      const position = unused.findIndex(
        (candidate) => candidate.name === resolution.request.name && (candidate.ref ?? '') === (resolution.request.ref ?? ''),
      );
      if (position < 0) continue;
      const [call] = unused.splice(position, 1);
      resolution.answersToolCallId = call.id;
      // The recorded history may have lost the marker of a parked output (genkit 1.42 bug 3):
      // the parked call's own output is what was reused.
      if (resolution.kind === 'pending' && resolution.output === undefined) resolution.output = call.output;
      call.resolvedBy.push({ generateId: resume.id, kind: resolution.kind, nodeId: resolution.id });
    }
  }
}
