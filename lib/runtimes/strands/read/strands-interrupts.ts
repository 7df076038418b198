/**
 * Strands Agents' interrupts as its spans record them: only in the agent span's answer, whose
 * finish reason is `interrupt` and whose one text part is the Python `repr` of the interrupt list
 * (`[{'id': 'v1:before_tool_call:tooluse_book_paris:7d6c…', 'name': 'approve-booking-paris',
 * 'reason': {…}, 'response': None}]`: docs/guides/strands.md). Which tool call an interrupt
 * holds is said only inside its id (`v1:before_tool_call:<tool use id>:<uuid>` for a hook or the
 * HumanInTheLoop intervention, `v1:tool_call:<tool use id>:<uuid>` for `tool_context.interrupt`
 * inside the tool); Strands calls the id opaque, so a call it names no id of is matched by the
 * reader's own rule (the one request left without a span).
 */
import { isObject } from '../../../spans/json-value';
import { tryParseJsonLimited } from '../../../spans/parse-json-limited';
import type { CallPause, LoopMessages, LoopPause } from '../../genai-loop/loop-flavor';
import { messageText } from '../../otel-genai/read/genai-messages';
import { readPythonRepr } from '../../python-values/python-repr';

/** The finish reason of a Strands agent run that stopped on interrupts. */
export const INTERRUPT_FINISH_REASON = 'interrupt';
/** The `name` of the vended HumanInTheLoop intervention's interrupts. */
export const HUMAN_IN_THE_LOOP = 'strands:human-in-the-loop';

/** Who raised an interrupt: a BeforeToolCallEvent hook, the HumanInTheLoop intervention (also before the tool), or the tool itself. */
export type InterruptSource = 'hook' | 'intervention' | 'tool';

export interface StrandsInterrupt {
  id: string;
  name: string;
  reason: unknown;
  source: InterruptSource;
  /** The tool use id its id names, when it names one. */
  toolUseId?: string;
}

const ID_PATTERN = /^v1:(before_tool_call|tool_call):(.+):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What an interrupt id says: before the tool (a hook or intervention) or inside it, and the tool use id. */
function idParts(id: string): { inside: boolean; toolUseId?: string } {
  const match = ID_PATTERN.exec(id);
  return match ? { inside: match[1] === 'tool_call', toolUseId: match[2] } : { inside: false };
}

function interruptOf(value: unknown): StrandsInterrupt | undefined {
  if (!isObject(value) || typeof value.id !== 'string') return undefined;
  const name = typeof value.name === 'string' ? value.name : '';
  const { inside, toolUseId } = idParts(value.id);
  const source: InterruptSource = inside ? 'tool' : name === HUMAN_IN_THE_LOOP ? 'intervention' : 'hook';
  return { id: value.id, name, reason: value.reason ?? null, source, ...(toolUseId !== undefined ? { toolUseId } : {}) };
}

/**
 * The interrupts an agent run stopped on, from its answer (`view`: the agent span's messages);
 * none when it did not stop on interrupts. `problem` says why an answer that stopped on
 * interrupts could not be read.
 */
export function strandsInterrupts(view: LoopMessages): { interrupts: StrandsInterrupt[]; problem?: string } {
  if (!view.finishReasons.includes(INTERRUPT_FINISH_REASON)) return { interrupts: [] };
  const text = messageText(view.output.messages.at(-1));
  if (text === undefined) return { interrupts: [], problem: 'the run stopped on interrupts, and its answer records none' };
  // A Python repr as Strands 1.x writes it; JSON, should a later version write that.
  const json = tryParseJsonLimited(text);
  const read = json.ok ? { ok: true as const, value: json.value } : readPythonRepr(text);
  if (!read.ok) return { interrupts: [], problem: `the interrupts in the run's answer could not be read (${read.problem})` };
  const list = Array.isArray(read.value) ? read.value : [read.value];
  const interrupts = list.map(interruptOf).filter((interrupt): interrupt is StrandsInterrupt => interrupt !== undefined);
  return interrupts.length < list.length ? { interrupts, problem: `${list.length - interrupts.length} interrupt(s) in the run's answer have no id` } : { interrupts };
}

/** An interrupt as the pause the graph draws, in Strands' words. */
export function strandsPause(interrupt: StrandsInterrupt): LoopPause {
  const pausedAs =
    interrupt.source === 'intervention' ? 'approval required (HumanInTheLoop)' : interrupt.source === 'hook' ? `held by a hook (interrupt ${interrupt.name})` : `interrupt (${interrupt.name}, tool_context.interrupt)`;
  return { pausedAs, metadata: { interrupt: interrupt.name, reason: interrupt.reason }, evidence: 'message', pauseId: interrupt.id };
}

/** The pauses of a hook or intervention (raised before the tool: no tool span ran), each naming its call when its id does. */
export function pausesBeforeTools(interrupts: readonly StrandsInterrupt[]): CallPause[] {
  return interrupts.filter((interrupt) => interrupt.source !== 'tool').map((interrupt) => ({ ...strandsPause(interrupt), ...(interrupt.toolUseId !== undefined ? { callId: interrupt.toolUseId } : {}) }));
}

/** Which kind of Strands pause a paused call's interrupt is, from its id and name (undefined: not a Strands interrupt). */
export function pauseSourceOf(pause: { pauseId?: string; metadata: unknown }): InterruptSource | undefined {
  if (pause.pauseId === undefined) return undefined;
  const name = isObject(pause.metadata) && typeof pause.metadata.interrupt === 'string' ? pause.metadata.interrupt : '';
  return interruptOf({ id: pause.pauseId, name })?.source;
}
