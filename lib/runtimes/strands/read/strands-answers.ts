/**
 * How a Strands Agents run answers the interrupts of the run before it. The answer itself is
 * recorded nowhere (the answering run's input messages are `[]`): what the spans show is what
 * the answer did. The answering run runs the answered tools before any model call — an approved
 * call runs (its `execute_tool` span, same tool use id: restart), a denied one does not (its
 * result, the hook's cancel message or the intervention's `CONFIRMATION_FAILED`, reaches the next
 * model call with no tool span: respond), and a tool that interrupted itself runs again from the
 * start with the response (restart). Once linking shows which interrupt each answer met, the
 * answer is worded by who asked (a hook, the HumanInTheLoop intervention, the tool).
 */
import { isObject } from '../../../spans/json-value';
import type { GenerateCall, Resolution } from '../../../loop/loop-model';
import { readLoopAnswers } from '../../genai-loop/loop-answers';
import { toolCallsById } from '../../genai-loop/loop-after-linking';
import type { AnswerEvidence, LoopWords } from '../../genai-loop/loop-flavor';
import { pauseSourceOf, type InterruptSource } from './strands-interrupts';

const SHORT = 160;

/** The text of a result as the model got it (Strands' content list `[{"text": …}]`), shortened, for words. */
function resultText(output: unknown): string | undefined {
  const texts = Array.isArray(output) ? output.flatMap((block) => (isObject(block) && typeof block.text === 'string' ? [block.text] : [])) : typeof output === 'string' ? [output] : [];
  if (texts.length === 0) return undefined;
  const text = texts.join(' ');
  return text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text;
}

const NO_SPAN = 'the tool did not run (no execute_tool span in the answering run)';

/** A result that reached the model with no tool span: the tool was cancelled (denied). */
function deniedWords(output: unknown, by?: string): string {
  const text = resultText(output);
  return `denied${by ? ` by ${by}` : ''} — ${NO_SPAN}${text !== undefined ? `; the model got: ${JSON.stringify(text)}` : ''}`;
}

/** The answers a run gives: the reader's default (a tool span ran again: restart; a result with no span: respond), a respond worded as the denial it is. */
export function readStrandsAnswers(evidence: AnswerEvidence, words: LoopWords): Resolution[] | undefined {
  const resolutions = readLoopAnswers(evidence, words);
  for (const resolution of resolutions ?? []) if (resolution.kind === 'respond') resolution.words = deniedWords(resolution.output);
  return resolutions;
}

const RESTART_WORDS: Record<InterruptSource, string> = {
  hook: 'approved — the hook let the tool run',
  intervention: 'approved (HumanInTheLoop) — the tool ran',
  tool: 'resumed — the tool ran again from the start with the response',
};
const DENIED_BY: Record<InterruptSource, string> = { hook: 'the hook', intervention: 'HumanInTheLoop', tool: 'the tool' };

/** Words each answer by the interrupt it met, once linking tied it to its call. */
export function strandsAfterLinking(options: { generates: readonly GenerateCall[]; dialectId: string }): void {
  const calls = toolCallsById(options.generates);
  for (const generate of options.generates) {
    if (generate.runtime !== options.dialectId || !generate.resume) continue;
    for (const resolution of generate.resume.resolutions) {
      const interrupt = resolution.answersToolCallId === undefined ? undefined : calls.get(resolution.answersToolCallId)?.interrupt;
      const source = interrupt ? pauseSourceOf(interrupt) : undefined;
      if (!source) continue;
      if (resolution.kind === 'restart') resolution.words = RESTART_WORDS[source];
      else if (resolution.kind === 'respond') resolution.words = deniedWords(resolution.output, DENIED_BY[source]);
    }
  }
}
