/**
 * A genkit generate call read from its spans: one `generate` span per call, each later turn a
 * generate span nested in the previous one (docs/interrupt-model.md §4), each turn's model span
 * and its tool spans siblings under it; a resume runs its restarts before its first turn.
 */
import { isObject } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { spanKey, type Span } from '../../../spans/span';
import type { GenerateCall, ModelCall, Resolution, ToolCall, Turn } from '../../../loop/loop-model';
import type { ReadCall } from '../../../loop/runtime-dialect';
import type { SpanIndex } from '../../../loop/span-index';
import { GENKIT_BUGS } from './known-bugs';
import { interruptedKeyOf, resumeKeyOf } from './link-keys';
import { HAND_WRITTEN_MODEL } from './loopscope-markers';
import { messageText, toolRequestParts, toolRequestsOf } from './message-parts';
import { readResolutions } from './read-resolutions';
import { buildToolCall, pairToolCalls } from './read-tool-call';
import { readResumeInput, type ResumeInput } from './resume-parts';
import { newGenerateCall } from '../../../loop/new-generate-call';

const STATUS_PREFIX = /^([A-Z_]{3,}):/;

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readModelCall(index: SpanIndex, span: Span): ModelCall {
  const classification = index.classify(span);
  const output = jsonAttributeOrUndefined(span.attributes['genkit:output']);
  const message = isObject(output) ? output.message : undefined;
  return {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    model: classification.label,
    status: classification.outcome === 'running' ? 'running' : classification.outcome === 'error' ? 'error' : 'ok',
    toolRequests: toolRequestsOf(message),
    text: messageText(message),
    finishReason: isObject(output) ? stringOf(output.finishReason) : undefined,
    errorMessage: classification.errorMessage,
    ...(classification.label === HAND_WRITTEN_MODEL ? { handWritten: true as const } : {}),
  };
}

/** Counts one more of `name`, in a map made on the first count. */
function countName(counts: Map<string, number> | undefined, name: string): Map<string, number> {
  const map = counts ?? new Map<string, number>();
  return map.set(name, (map.get(name) ?? 0) + 1);
}

/** Names the genkit 1.42 resume bugs (known-bugs.ts) visible within one generate. */
const knownBugNotes: BugNotes = (options) => {
  const notes: string[] = [];
  if (options.errorMessage?.includes("reading 'tools'") && options.resumeToolCalls.some((call) => call.status === 'interrupted')) {
    notes.push(GENKIT_BUGS[1].graphNote());
  }
  if (options.resolutions.some((resolution) => resolution.replacedInput !== undefined)) notes.push(GENKIT_BUGS[2].graphNote());
  // Made for the first request without a ref: most calls have none.
  let refless: Map<string, number> | undefined;
  for (const turn of options.turns) {
    for (const call of turn.toolCalls) if (call.status === 'interrupted' && !call.ref) refless = countName(refless, call.name);
  }
  for (const resolution of options.resolutions) if (!resolution.request.ref) refless = countName(refless, resolution.request.name);
  for (const [name, times] of refless ?? []) if (times > 1) notes.push(GENKIT_BUGS[4].graphNote(times, name));
  return notes;
};

/** A generate's input and resume parts: a resume is a generate called with `resume: {respond, restart}` (genkit JS, and genkit Go ≥ 1.12). */
function readResume(root: Span): { parsedInput?: ParsedInput; input?: Record<string, unknown>; resume?: ResumeInput } {
  // A generate's input repeats the whole history and tool schemas: parse it only for a resume.
  const rawInput = root.attributes['genkit:input'];
  const mayBeResume = typeof rawInput === 'string' ? rawInput.includes('"resume"') : isObject(rawInput) && rawInput.resume !== undefined;
  if (!mayBeResume) return {};
  const parsedInput = { value: jsonAttributeOrUndefined(rawInput) };
  const input = isObject(parsedInput.value) ? parsedInput.value : undefined;
  return { parsedInput, input, resume: readResumeInput(input) };
}

/** A generate's `genkit:input` as parsed (`value` undefined: not JSON). */
export interface ParsedInput {
  value: unknown;
}

/** What a call shows of a runtime's known bugs, in words. */
export type BugNotes = (facts: { errorMessage?: string; resumeToolCalls: ToolCall[]; turns: Turn[]; resolutions: Resolution[] }) => string[];

/** What `readGenerateCall` is given. */
interface GenerateCallSource {
  index: SpanIndex;
  root: Span;
  flowSpanId?: string;
  /** Another runtime of the genkit family: its known bugs in place of genkit JS's. */
  bugNotes?: BugNotes;
}

/**
 * Reads one top-level generate call — its turns, tool calls, resume and link keys — from its
 * span. `bugNotes` names the known bugs of the runtime that recorded it (genkit JS 1.42's by
 * default).
 */
export function readGenerateCall(options: GenerateCallSource): ReadCall {
  return readGenerateCallAndInput(options).read;
}

/**
 * `readGenerateCall`, with the generate's input when it was parsed for a resume: genkit Go reads
 * its ToolApproval from the same input, which holds the whole history — parsed once per build.
 */
export function readGenerateCallAndInput(options: GenerateCallSource): { read: ReadCall; parsedInput?: ParsedInput } {
  const { index, root, flowSpanId } = options;
  const id = spanKey(root);
  const classification = index.classify(root);
  const { parsedInput, input, resume: resumeInput } = readResume(root);
  const mayBeResume = resumeInput !== undefined;
  const outputInterrupted = classification.outcome === 'interrupted';
  const parsedOutput = outputInterrupted ? jsonAttributeOrUndefined(root.attributes['genkit:output']) : undefined;
  const output = isObject(parsedOutput) ? parsedOutput : undefined;

  const turns: Turn[] = [];
  let resumeToolCalls: ToolCall[] = [];
  // Each turn's generate span is a child of the previous turn's, its only parent: a walk down
  // can come back only to where it started (a parent cycle in broken data), and ends there.
  let current: Span | undefined = root;
  do {
    // One pass over the children: the turn's model span, its tool spans, the next turn's generate.
    let modelSpan: Span | undefined;
    let next: Span | undefined;
    const toolSpans: Span[] = [];
    for (const child of index.childrenOf(current)) {
      const role = index.classify(child).role;
      if (role === 'model') modelSpan ??= child;
      else if (role === 'tool') toolSpans.push(child);
      else if (role === 'generate') next ??= child;
    }
    if (modelSpan) {
      const model = readModelCall(index, modelSpan);
      const turnId = spanKey(current);
      turns.push({ index: turns.length, generateSpanId: current.spanId, model, toolCalls: pairToolCalls({ index, turnId, requests: model.toolRequests, toolSpans }) });
    } else if (toolSpans.length > 0 && current === root && mayBeResume) {
      // A resume generate runs its restarts before recursing into its first model turn.
      resumeToolCalls = toolSpans.map((span) => buildToolCall({ index, span }));
    } else if (toolSpans.length > 0) {
      // Tool spans whose model span never arrived (lost, or another exporter): still a turn.
      turns.push({ index: turns.length, generateSpanId: current.spanId, toolCalls: pairToolCalls({ index, turnId: spanKey(current), requests: [], toolSpans }) });
    }
    current = next;
  } while (current && current !== root);

  // Interrupt markers in the final message: evidence for interrupts whose span shows none.
  const pendingInterrupts = toolRequestParts(output?.message)
    .filter((part) => part.metadata.interrupt !== undefined)
    .map((part) => ({ ...part, metadata: part.metadata.interrupt }));
  const lastTurn = turns[turns.length - 1];
  if (lastTurn) {
    for (const marker of pendingInterrupts) {
      const call = lastTurn.toolCalls.find((candidate) => candidate.name === marker.request.name && (candidate.ref ?? '') === (marker.request.ref ?? ''));
      if (call && call.status !== 'interrupted') {
        call.status = 'interrupted';
        call.errorMessage = undefined;
        call.interrupt = { metadata: marker.metadata, evidence: 'message' };
      } else if (call?.interrupt?.evidence === 'exception') {
        call.interrupt = { metadata: marker.metadata, evidence: 'exception' };
      }
    }
  }
  for (const turn of turns) {
    if (!turn.toolCalls.some((call) => call.status === 'interrupted')) continue;
    for (const call of turn.toolCalls) if (call.status === 'ok') call.parked = true;
  }

  // Without a parsed output, the last model call tells how the generate finished.
  const lastModel = turns[turns.length - 1]?.model;
  const finishReason = outputInterrupted ? (stringOf(output?.finishReason) ?? 'interrupted') : lastModel?.finishReason;
  let status: GenerateCall['status'];
  if (classification.outcome === 'running') status = 'running';
  else if (classification.outcome === 'error') status = 'error';
  else if (finishReason === 'interrupted' || classification.outcome === 'interrupted') status = 'interrupted';
  else status = 'ok';
  const errorMessage = status === 'error' ? classification.errorMessage : undefined;

  const resume = input && resumeInput ? { resolutions: readResolutions({ generateId: id, input, resume: resumeInput, errorMessage, resumeToolCalls }) } : undefined;
  const firstModel = turns.find((turn) => turn.model)?.model?.model;
  const call = newGenerateCall({
    root,
    flowSpanId,
    read: {
      status,
      finishReason: status === 'ok' || status === 'interrupted' ? finishReason : undefined,
      errorMessage,
      errorStatus: errorMessage ? STATUS_PREFIX.exec(errorMessage)?.[1] : undefined,
      model: stringOf(input?.model) ?? firstModel,
      turns,
      resumeToolCalls,
      resume,
      pendingInterrupts: pendingInterrupts.map((part) => part.request),
      text: status === 'ok' ? lastModel?.text : undefined,
      notes: (options.bugNotes ?? knownBugNotes)({ errorMessage, resumeToolCalls, turns, resolutions: resume?.resolutions ?? [] }),
    },
  });
  return { read: { call, interrupted: interruptedKeyOf({ call, root, output }), resume: resumeKeyOf({ call, root, input }) }, parsedInput };
}
