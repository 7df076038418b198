import type { TraceLinkKeys } from '../spans/trace-link-keys';
import { matchResumes, type ResumeMatch } from './match-resumes';
import type { GenerateCall, Resolution, ToolCall } from './run-graph';

/** The call a resolution answers among `calls` (removed from them): by the pause's id when the answer names one, else by name and ref. */
function takeAnswered(calls: ToolCall[], resolution: Resolution): ToolCall | undefined {
  let position = resolution.pauseId === undefined ? -1 : calls.findIndex((candidate) => candidate.interrupt?.pauseId === resolution.pauseId);
  if (position < 0) position = calls.findIndex((candidate) => candidate.name === resolution.request.name && (candidate.ref ?? '') === (resolution.request.ref ?? ''));
  return position < 0 ? undefined : calls.splice(position, 1)[0];
}

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
    const unused = [...(lastTurn?.toolCalls ?? [])];
    // An answer that names its call by id (a tool call id, or the runtime's id of the pause) may
    // answer a call of an earlier turn (Google ADK runs the model once more after a tool asked for
    // a confirmation), or one the original ran before its first turn (an answer paused again).
    let elsewhere: ToolCall[] | undefined;
    const earlier = () => (elsewhere ??= [...original.turns.slice(0, -1).reverse().flatMap((turn) => turn.toolCalls), ...original.resumeToolCalls]);
    for (const resolution of resume.resume.resolutions) {
      const call = takeAnswered(unused, resolution) ?? (resolution.pauseId !== undefined || resolution.request.ref !== undefined ? takeAnswered(earlier(), resolution) : undefined);
      if (!call) continue;
      // An answer that named only the pause (LangGraph's interrupt id) is the request of the call it answers.
      if (resolution.pauseId !== undefined && resolution.request.ref === undefined && call.ref !== undefined) resolution.request = { name: call.name, ref: call.ref, input: call.input };
      resolution.answersToolCallId = call.id;
      // The recorded history may have lost the marker of a parked output (genkit 1.42 bug 3):
      // the parked call's own output is what was reused.
      if (resolution.kind === 'pending' && resolution.output === undefined) resolution.output = call.output;
      call.resolvedBy.push({ generateId: resume.id, kind: resolution.kind, nodeId: resolution.id });
    }
  }
}
