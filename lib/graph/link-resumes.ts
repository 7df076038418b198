import { canonicalJson } from './message-parts';
import type { GenerateCall, ToolRequestData } from './run-graph';

/** The requests of one model message as one key: name, ref and input, order-free. */
function requestsKey(requests: readonly ToolRequestData[]): string {
  return requests
    .map((request) => `${request.name}#${request.ref ?? ''}#${canonicalJson(request.input)}`)
    .sort()
    .join('\n');
}

/**
 * Links each resume to the interrupted generate it answered — across traces, since genkit
 * records them as separate traces with no OTel link. The only thread is message content:
 * the resume's history ends with the interrupted model message, so its tool requests
 * (name + ref + input, never metadata: genkit rewrites that, bug 3) must equal the requests
 * of the other generate's last turn. The latest such generate that started earlier wins.
 * Mutates the given calls (they are fresh objects of this build).
 */
export function linkResumes(generates: GenerateCall[]): void {
  const byStart = [...generates].sort((a, b) => a.startTime - b.startTime);
  // Interrupted generates by the requests of their last turn: one lookup per resume, so a
  // file with thousands of generates links in linear time.
  const interruptedByKey = new Map<string, GenerateCall[]>();
  for (const candidate of byStart) {
    const lastTurn = candidate.turns[candidate.turns.length - 1];
    if (!lastTurn?.model || !lastTurn.toolCalls.some((call) => call.status === 'interrupted')) continue;
    const key = requestsKey(lastTurn.model.toolRequests);
    const list = interruptedByKey.get(key) ?? [];
    list.push(candidate);
    interruptedByKey.set(key, list);
  }
  for (const resume of byStart) {
    if (!resume.resume || resume.resume.resolutions.length === 0) continue;
    const candidates = interruptedByKey.get(requestsKey(resume.resume.resolutions.map((resolution) => resolution.request))) ?? [];
    const original = [...candidates].reverse().find((candidate) => candidate !== resume && candidate.startTime <= resume.startTime);
    if (!original) continue;
    resume.resume.answersGenerateId = original.id;
    const lastTurn = original.turns[original.turns.length - 1];
    // Calls without a ref share name and ref: each resolution takes the next unused one.
    const unused = [...lastTurn.toolCalls];
    for (const resolution of resume.resume.resolutions) {
      const position = unused.findIndex(
        (candidate) => candidate.name === resolution.request.name && (candidate.ref ?? '') === (resolution.request.ref ?? ''),
      );
      if (position < 0) continue;
      const [call] = unused.splice(position, 1);
      const earlierPending = call.resolvedBy.some((earlier) => earlier.kind === 'pending');
      if (resolution.kind === 'unresolved' && earlierPending) {
        resume.notes.push(
          `genkit 1.42 bug 3: an earlier resume rewrote the shared messages in place and stripped the pendingOutput of ${resolution.request.name}, so retrying the same resume fails.`,
        );
      }
      resolution.answersToolCallId = call.id;
      // genkit may have stripped the pendingOutput marker from the recorded history (bug 3):
      // the parked call's own output is what was reused.
      if (resolution.kind === 'pending' && resolution.output === undefined) resolution.output = call.output;
      call.resolvedBy.push({ generateId: resume.id, kind: resolution.kind, nodeId: resolution.id });
    }
  }
}
