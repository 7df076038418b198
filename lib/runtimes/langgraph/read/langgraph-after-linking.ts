/**
 * What linking shows of LangGraph answers: a `Command(resume={interrupt id: value, …})` names
 * interrupts, and the paused run's spans tie each interrupt id to its tool call (the
 * `GraphInterrupt` repr on the tool's or the review node's span). Once lib/graph/link-resumes.ts
 * has tied each answer to its call by interrupt id, the answer is read again with that call and
 * the tool span that ran for it in the answering run (read-langgraph-answers.ts).
 */
import type { GenerateCall } from '../../../loop/loop-model';
import { toolCallsById } from '../../genai-loop/loop-after-linking';
import { LANGGRAPH_DIALECT_ID } from './dialect-id';
import { langGraphResolution } from './read-langgraph-answers';

export function langGraphAfterLinking(generates: readonly GenerateCall[]): void {
  const calls = toolCallsById(generates);
  for (const answer of generates) {
    if (answer.runtime !== LANGGRAPH_DIALECT_ID || !answer.resume) continue;
    answer.resume.resolutions = answer.resume.resolutions.map((resolution) => {
      const call = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId);
      if (!call || resolution.pauseId === undefined) return resolution;
      const entry = { pauseId: resolution.pauseId, value: resolution.resumed };
      const request = { name: call.name, ...(call.ref !== undefined ? { ref: call.ref } : {}), input: call.input };
      const ran = answer.resumeToolCalls.find((candidate) => candidate.ref !== undefined && candidate.ref === call.ref);
      const reread = langGraphResolution({ generateId: answer.id, entry, request, ran });
      // Keep the node id (the call's answer links point at it) and the tie linking made.
      return { ...reread, id: resolution.id, answersToolCallId: resolution.answersToolCallId };
    });
  }
}

