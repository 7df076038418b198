/**
 * How an answering OpenAI Agents SDK run answers its paused run (docs/guides/openai-agents.md,
 * "The answering run"): `state.approve(item)` runs the tool first in the new trace, before any
 * model call, with its result; `state.reject(item)` runs nothing and the model gets the
 * rejection as the call's result. The SDK's tool spans carry no call id and the new trace no
 * link, so each answer is read from the history the next model call was sent — the paused
 * model answer's calls and their results, by call id — and the tool spans that ran before it,
 * tied to a call by name and arguments (and result). A run that answered only some calls and
 * paused again on the rest makes no model call (no history): its tools run again are answers
 * without a call id, tied once linking shows the paused run (`agentsAfterLinking`).
 */
import { sameJson } from '../../../spans/json-value';
import { resolutionId } from '../../genai-loop/loop-answers';
import type { AnswerEvidence } from '../../genai-loop/loop-flavor';
import { toolCallsById } from '../../genai-loop/loop-after-linking';
import { requestLabel, type GenerateCall, type Resolution, type ToolCall } from '../../../loop/loop-model';
import { toolCallParts } from '../../otel-genai/read/genai-messages';
import { OPENAI_AGENTS_DIALECT_ID } from './dialect-id';

/** The words of the SDK's two answers, once linking shows the call paused; before that, what the spans show. */
export const ANSWER_WORDS = {
  approved: 'approved (state.approve) — the tool ran in the answering run',
  rejected: 'rejected (state.reject) — the tool did not run: no tool span in the answering run',
  ran: 'ran in the answering run, before its first model call',
  withoutSpan: 'answered without a tool span (a rejection, or the result of a call that ran before)',
} as const;

/**
 * The answers an OpenAI Agents run gives its paused run (see the file's comment); undefined when
 * it answers nothing. A tool run again is tied to the result its output became (the results name
 * the call ids; which item id in the history is which call is only known by order), else to a
 * call of the same name and arguments; every other result is an answer without a tool span.
 */
export function readAgentsAnswers(evidence: AnswerEvidence): Resolution[] | undefined {
  const { answered } = evidence;
  const parts = new Map(toolCallParts(answered?.assistant).flatMap((part) => (part.id !== undefined ? [[part.id, part] as const] : [])));
  const responses = new Map(answered?.responses ?? []);
  const resolutions: Resolution[] = [];
  const requestOf = (ref: string) => ({ name: parts.get(ref)?.name ?? 'unknown tool', ref, input: parts.get(ref)?.arguments });
  for (const ran of evidence.resumeToolCalls) {
    const same = (ref: string) => parts.get(ref)?.name === ran.name && sameJson(parts.get(ref)?.arguments, ran.input);
    const open = [...responses.keys()];
    const ref = open.find((id) => ran.output !== undefined && sameJson(responses.get(id), ran.output) && same(id)) ?? open.find((id) => ran.output !== undefined && sameJson(responses.get(id), ran.output)) ?? open.find(same);
    if (ref !== undefined) {
      responses.delete(ref);
      // The tool span records no call id: the call it ran is this one.
      ran.ref = ref;
      const request = { name: ran.name, ref, input: ran.input };
      resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'restart', request, restartedToolCallId: ran.id, words: ANSWER_WORDS.ran });
    } else {
      // Run again with no model call after it (a run that paused again): an answer without a call id.
      const request = { name: ran.name, input: ran.input };
      resolutions.push({ id: `${resolutionId(evidence.generateId, request)}@${ran.spanId ?? ran.id}`, kind: 'restart', request, restartedToolCallId: ran.id, words: ANSWER_WORDS.ran });
    }
  }
  for (const [ref, response] of responses) {
    const request = requestOf(ref);
    resolutions.push({ id: resolutionId(evidence.generateId, request), kind: 'respond', request, output: response, words: ANSWER_WORDS.withoutSpan });
  }
  return resolutions.length > 0 ? resolutions : undefined;
}

function tie(options: { resolution: Resolution; call: ToolCall; generate: GenerateCall }): void {
  const { resolution, call, generate } = options;
  resolution.answersToolCallId = call.id;
  resolution.request = { name: call.name, ...(call.ref !== undefined ? { ref: call.ref } : {}), input: call.input };
  call.resolvedBy.push({ generateId: generate.id, kind: resolution.kind, nodeId: resolution.id });
}

/** The tool calls of a call, in every turn and among the tools it ran again. */
function toolCallsOf(generate: GenerateCall): ToolCall[] {
  return [...generate.turns.flatMap((turn) => turn.toolCalls), ...generate.resumeToolCalls];
}

/**
 * What linking shows an OpenAI Agents answering run: its answers the content could not tie
 * (a call id the history named by position, a tool run again with no call id) tied to the
 * paused run's call by call id, else by name and arguments; a result an earlier answering run
 * already gave (a run that answered some calls and paused again, then one that answered the
 * rest) dropped — it is that run's result, carried in the history; and each answer in the SDK's
 * words.
 */
export function agentsAfterLinking(generates: readonly GenerateCall[]): void {
  const byId = new Map(generates.map((generate) => [generate.id, generate]));
  const calls = toolCallsById(generates);
  const answering = generates.filter((generate) => generate.runtime === OPENAI_AGENTS_DIALECT_ID && generate.resume?.answersGenerateId !== undefined).sort((a, b) => a.startTime - b.startTime);
  for (const generate of answering) {
    const resume = generate.resume!;
    const original = byId.get(resume.answersGenerateId!);
    if (!original) continue;
    const own = toolCallsOf(original);
    const paused = own.filter((call) => call.status === 'interrupted');
    const untied = (call: ToolCall) => !call.resolvedBy.some((answer) => answer.generateId === generate.id);
    for (const resolution of resume.resolutions) {
      if (resolution.answersToolCallId !== undefined) continue;
      const ref = resolution.request.ref;
      // By call id (its name read by position may be another call's), else a paused call of the same name and arguments.
      const call =
        ref !== undefined
          ? own.find((candidate) => candidate.ref === ref && untied(candidate))
          : paused.find((candidate) => untied(candidate) && candidate.name === resolution.request.name && sameJson(candidate.input, resolution.request.input));
      if (!call) continue;
      tie({ resolution, call, generate });
      const ran = resolution.restartedToolCallId === undefined ? undefined : calls.get(resolution.restartedToolCallId);
      if (ran && ran.ref === undefined) ran.ref = call.ref;
    }
    // A result an earlier answering run gave by running the tool, carried in this run's history: not an answer of this run.
    resume.resolutions = resume.resolutions.filter((resolution) => {
      if (resolution.kind !== 'respond' || resolution.answersToolCallId === undefined) return true;
      const call = calls.get(resolution.answersToolCallId);
      const earlier = call?.resolvedBy.find((answer) => answer.generateId !== generate.id && answer.kind === 'restart');
      const earlierRun = earlier ? byId.get(earlier.generateId)?.resume?.resolutions.find((candidate) => candidate.id === earlier.nodeId) : undefined;
      const rerun = earlierRun?.restartedToolCallId === undefined ? undefined : calls.get(earlierRun.restartedToolCallId);
      if (!call || !rerun || !sameJson(rerun.output, resolution.output)) return true;
      call.resolvedBy = call.resolvedBy.filter((answer) => answer.nodeId !== resolution.id);
      return false;
    });
    for (const resolution of resume.resolutions) {
      const call = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId);
      if (call?.status !== 'interrupted') continue;
      if (resolution.kind === 'restart') resolution.words = ANSWER_WORDS.approved;
      else if (resolution.kind === 'respond') resolution.words = ANSWER_WORDS.rejected;
    }
    pausedAgain({ generate, paused, byId });
  }
}

/**
 * A run that answered some paused calls and made no model call paused again on the rest (the
 * SDK returns them in `result.interruptions` again; its spans show nothing of them): said in the
 * SDK's words on the run, naming the calls still waiting.
 */
function pausedAgain(options: { generate: GenerateCall; paused: readonly ToolCall[]; byId: ReadonlyMap<string, GenerateCall> }): void {
  const { generate, byId } = options;
  if (generate.status !== 'ok' || generate.turns.length > 0) return;
  // Answered by this run or one before it: not waiting after it.
  const answeredBy = (call: ToolCall) => call.resolvedBy.some((answer) => (byId.get(answer.generateId)?.startTime ?? Infinity) <= generate.startTime);
  const waiting = options.paused.filter((call) => !answeredBy(call));
  if (waiting.length === 0) return;
  generate.runtimeState = { code: 'paused-again', words: `paused again: ${waiting.map((call) => requestLabel(call)).join(', ')} still wait${waiting.length === 1 ? 's' : ''} for state.approve / state.reject (no model call)` };
}
