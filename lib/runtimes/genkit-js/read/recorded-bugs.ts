/**
 * Which of genkit 1.42's resume bugs (docs/interrupt-model.md §7) a recording shows, read from
 * what genkit recorded — outcomes, resume parts and the requests the model received — never
 * guessed from names. An exported repro names them in its header.
 */
import { canonicalJson, isObject } from '../../../spans/json-value';
import { GENKIT_BUGS, type GenkitBugNumber } from './known-bugs';
import { inputMessages, messageParts, toolRequestParts } from './message-parts';
import type { GenerateStep, Recording, ReplayStep } from './recording';
import { readResumeInput } from './resume-parts';

export type { GenkitBugNumber };

export interface RecordedGenkitBug {
  bug: GenkitBugNumber;
  /** The step (0-based) where it shows. */
  step: number;
  /** One factual sentence about this recording. */
  summary: string;
  /** Bugs 2 and 4 show only in what genkit sends the model after the resume, not in how it ends. */
  showsInToolResponses: boolean;
}

/** The bugs in genkit's own terms (docs/interrupt-model.md §7), from the one table (known-bugs.ts). */
export const GENKIT_BUG_TITLES: Record<GenkitBugNumber, string> = {
  1: GENKIT_BUGS[1].title,
  2: GENKIT_BUGS[2].title,
  3: GENKIT_BUGS[3].title,
  4: GENKIT_BUGS[4].title,
  5: GENKIT_BUGS[5].title,
};

const json = (value: unknown) => JSON.stringify(value) ?? 'undefined';

function resumeParts(step: GenerateStep, kind: 'respond' | 'restart'): Record<string, unknown>[] {
  return readResumeInput(step.options)?.[kind] ?? [];
}

/** The parts of the `role:"tool"` message genkit added for the resume, as the model first received it. */
function resumedToolResponses(step: GenerateStep): { name?: unknown; ref?: unknown; output?: unknown }[] {
  const request = step.modelCalls[0]?.request;
  const message = inputMessages(request).find((candidate) => candidate.role === 'tool' && isObject(candidate.metadata) && candidate.metadata.resumed !== undefined);
  return messageParts(message).flatMap((part) => (isObject(part.toolResponse) ? [part.toolResponse] : []));
}

function restartThatInterruptsAgain(step: GenerateStep): RecordedGenkitBug | undefined {
  const restarted = step.toolExecutions.filter((execution) => execution.restarted && execution.outcome.kind === 'interrupt');
  if (step.outcome.kind !== 'error' || !step.outcome.message.includes("reading 'tools'") || restarted.length === 0) return undefined;
  const names = [...new Set(restarted.map((execution) => execution.name))].join(', ');
  return { bug: 1, step: step.index, showsInToolResponses: false, summary: `${step.label} restarts ${names}, which interrupts again, and genkit fails with "${step.outcome.message}" instead of a FAILED_PRECONDITION.` };
}

function replacedInputNotInHistory(step: GenerateStep): RecordedGenkitBug | undefined {
  const history = inputMessages(step.modelCalls[0]?.request);
  for (const part of resumeParts(step, 'restart')) {
    const metadata = isObject(part.metadata) ? part.metadata : {};
    const request = isObject(part.toolRequest) ? part.toolRequest : undefined;
    if (!request || metadata.replacedInput === undefined || canonicalJson(metadata.replacedInput) === canonicalJson(request.input)) continue;
    const seen = history.flatMap((message) => (message.role === 'model' ? toolRequestParts(message) : [])).find(({ request: candidate }) => candidate.name === request.name && candidate.ref === request.ref);
    if (!seen || canonicalJson(seen.request.input) !== canonicalJson(metadata.replacedInput)) continue;
    const name = `${String(request.name)}${typeof request.ref === 'string' ? `#${request.ref}` : ''}`;
    return { bug: 2, step: step.index, showsInToolResponses: true, summary: `${step.label} restarts ${name} with its input replaced (${json(metadata.replacedInput)} → ${json(request.input)}); the tool runs with the new input, but the model still sees the original input next to the new output.` };
  }
  return undefined;
}

function retryOfMutatedMessages(step: GenerateStep, steps: readonly ReplayStep[]): RecordedGenkitBug | undefined {
  const first = step.retryOf === undefined ? undefined : steps[step.retryOf];
  if (!first || step.outcome.kind !== 'error' || first.outcome.kind === 'error') return undefined;
  return { bug: 3, step: step.index, showsInToolResponses: false, summary: `${step.label} retries ${first.label} — the same resume with the same messages array, as a caller retrying does; genkit rewrote that array during the first resume, so the retry fails: ${step.outcome.message}` };
}

function refLessAnswersMixedUp(step: GenerateStep, steps: readonly ReplayStep[]): RecordedGenkitBug | undefined {
  const answers = new Map<string, unknown[]>();
  for (const part of resumeParts(step, 'respond')) {
    const response = isObject(part.toolResponse) ? part.toolResponse : undefined;
    if (!response || typeof response.name !== 'string' || response.ref !== undefined) continue;
    answers.set(response.name, [...(answers.get(response.name) ?? []), response.output]);
  }
  const received = resumedToolResponses(step);
  for (const [name, outputs] of answers) {
    if (outputs.length < 2 || new Set(outputs.map(canonicalJson)).size < 2) continue;
    const got = received.filter((response) => response.name === name && response.ref === undefined);
    if (got.length < 2 || !got.every((response) => canonicalJson(response.output) === canonicalJson(outputs[0]))) continue;
    const parent = step.continues === undefined ? undefined : steps[step.continues];
    return { bug: 4, step: step.index, showsInToolResponses: true, summary: `${parent ? `${parent.label} interrupted` : 'The model called'} ${name} ${outputs.length} times without a ref; ${step.label} answers each differently, and the model receives the first answer, ${json(outputs[0])}, for all of them.` };
  }
  return undefined;
}

function interruptRunAlone(step: ReplayStep): RecordedGenkitBug | undefined {
  const execution = step.toolExecutions[0];
  if (step.kind !== 'tool' || execution?.outcome.kind !== 'interrupt' || step.outcome.kind !== 'error' || step.outcome.message !== '') return undefined;
  return { bug: 5, step: step.index, showsInToolResponses: false, summary: `${step.name} run on its own interrupts, and genkit reports an error with an empty message and no interrupt data.` };
}

/** Every genkit 1.42 resume bug the recording shows, in chain order. */
export function recordedGenkitBugs(recording: Recording): RecordedGenkitBug[] {
  const found: RecordedGenkitBug[] = [];
  for (const step of recording.steps) {
    const candidates =
      step.kind === 'tool'
        ? [interruptRunAlone(step)]
        : [restartThatInterruptsAgain(step), replacedInputNotInHistory(step), retryOfMutatedMessages(step, recording.steps), refLessAnswersMixedUp(step, recording.steps)];
    for (const bug of candidates) if (bug) found.push(bug);
  }
  return found;
}
