/**
 * The answers of a LangGraph run invoked with `Command(resume=…)` (docs/guides/langgraph.md):
 * its recorded input is the Command, whose `resume` is a map from interrupt id to resume value
 * (or, with one interrupt pending, the value itself). Only the interrupted tasks run again — a
 * tool that called `interrupt()` runs from its start (its span again, the tool it wraps inside it
 * when the answer let it run), a review node runs again and its tool task follows — then the
 * model. Each resume value is an answer: restart when the tool ran again (LangChain's `approve`
 * or `edit` decision, or any value after which the tool's span ran), respond otherwise (`reject`:
 * denied, `respond`: the caller's result) with the evidence that no tool span ran. A map names
 * interrupts, not tool calls: with several, which call each answers is known once linking ties
 * the interrupt ids to the paused run (langgraph-after-linking.ts).
 */
import type { Resolution, ToolCall, ToolRequestData } from '../../../loop/loop-model';
import { toolCallParts } from '../../otel-genai/read/genai-messages';
import { resolutionId } from '../../genai-loop/loop-answers';
import type { AnswerEvidence } from '../../genai-loop/loop-flavor';
import { readerOf } from './instrumentation-readers';
import { hitlDecisionOf, INTERRUPT_ID, LANGGRAPH_RESOLUTIONS, LANGGRAPH_STATES } from './langgraph-words';

/** One resume value of a Command: the interrupt it names (absent for a bare value), and the value. */
export interface ResumeEntry {
  pauseId?: string;
  value: unknown;
}

/** The resume values of a Command's `resume`: a map by interrupt id, else one bare value. */
export function resumeEntriesOf(resume: unknown): ResumeEntry[] {
  if (resume !== null && typeof resume === 'object' && !Array.isArray(resume)) {
    const entries = Object.entries(resume as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([key]) => INTERRUPT_ID.test(key))) return entries.map(([pauseId, value]) => ({ pauseId, value }));
  }
  return [{ value: resume }];
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * One answer, read from its resume value and — when the call it answers is known — the tool
 * span that ran for that call in the answering run (`ran`).
 */
export function langGraphResolution(options: { generateId: string; entry: ResumeEntry; request?: ToolRequestData; ran?: ToolCall }): Resolution {
  const { entry } = options;
  const request = options.request ?? { name: 'interrupt', ref: entry.pauseId ?? 'resume' };
  const ran = options.ran && options.ran.status !== 'interrupted' ? options.ran : undefined;
  const decision = hitlDecisionOf(entry.value);
  const restart = decision ? decision.type === 'approve' || decision.type === 'edit' : ran !== undefined;
  let words =
    decision?.type === 'approve'
      ? LANGGRAPH_RESOLUTIONS.approved
      : decision?.type === 'edit'
        ? LANGGRAPH_RESOLUTIONS.edited
        : decision?.type === 'reject'
          ? LANGGRAPH_RESOLUTIONS.rejected(decision.message)
          : decision?.type === 'respond'
            ? LANGGRAPH_RESOLUTIONS.responded
            : LANGGRAPH_RESOLUTIONS.resumed(shortJson(entry.value));
  // The evidence, once the call is known: no tool span ran for it, or only the tool that paused (not the one it wraps).
  if (options.request) {
    if (!ran) words = `${words} — ${LANGGRAPH_RESOLUTIONS.noToolSpan}`;
    else if (!restart && ran.runtimeState?.code !== LANGGRAPH_STATES.wrappedRan('').code) words = `${words} — ${LANGGRAPH_RESOLUTIONS.wrapperOnly}`;
  }
  const answered = decision?.type === 'respond' ? decision.result : decision?.type === 'reject' ? decision.message : entry.value;
  return {
    id: resolutionId(options.generateId, request),
    kind: restart ? 'restart' : 'respond',
    request,
    // The resume value itself, whatever it did (a respond's output is what the model got).
    resumed: entry.value,
    ...(restart ? {} : { output: ran ? ran.output : answered }),
    ...(decision?.type === 'edit' && decision.args !== undefined ? { replacedInput: decision.args } : {}),
    ...(ran ? { restartedToolCallId: ran.id } : {}),
    ...(entry.pauseId !== undefined ? { pauseId: entry.pauseId } : {}),
    words,
  };
}

/** The answers of a `Command(resume=…)` run, or undefined when the run was not invoked with one. */
export function readLangGraphAnswers(evidence: AnswerEvidence): Resolution[] | undefined {
  const command = readerOf(evidence.root).commandOf(evidence.root, evidence.index);
  if (!command?.hasResume) return undefined;
  const entries = resumeEntriesOf(command.resume);
  // Which call one resume value answers is evident when one tool ran again, or — no tool ran — one answered call has a result and no span.
  const ranAgain = evidence.resumeToolCalls.filter((call) => call.status !== 'interrupted' && call.ref !== undefined);
  const answered = evidence.answered;
  const withoutSpan = answered ? toolCallParts(answered.assistant).filter((part) => part.id !== undefined && answered.responses.has(part.id) && !evidence.resumeToolCalls.some((call) => call.ref === part.id)) : [];
  let request: ToolRequestData | undefined;
  if (entries.length === 1 && ranAgain.length === 1) request = { name: ranAgain[0].name, ref: ranAgain[0].ref, input: ranAgain[0].input };
  else if (entries.length === 1 && ranAgain.length === 0 && withoutSpan.length === 1) request = { name: withoutSpan[0].name ?? 'unknown tool', ref: withoutSpan[0].id, input: withoutSpan[0].arguments };
  return entries.map((entry) => langGraphResolution({ generateId: evidence.generateId, entry, request, ran: request ? ranAgain.find((call) => call.ref === request.ref) : undefined }));
}
