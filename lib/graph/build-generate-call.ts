import { jsonAttributeOrUndefined } from '../trace/parse-json-attribute';
import { nanosToMillis, type Span } from '../trace/span';
import {
  canonicalJson,
  inputMessages,
  isObject,
  messageParts,
  messageText,
  requestLabel,
  toolRequestParts,
  type RecordedMessage,
} from './message-parts';
import { ANSWERED_BY_HAND_ATTRIBUTE } from '../runtime/step-protocol';
import type { GenerateCall, ModelCall, Resolution, ToolCall, ToolRequestData, Turn } from './run-graph';
import { spanKey, type SpanIndex } from './span-index';

const STATUS_PREFIX = /^([A-Z_]{3,}):/;

/**
 * A tool call whose input and output are parsed from the recorded JSON on first read. Tool
 * inputs and outputs are only read when someone looks (a detail panel, Graph JSON), so the
 * graph of a 10,000-span file does not parse them all. Getters live on the prototype (objects
 * keep a fast shape); `toJSON` writes them out like plain fields.
 */
class RecordedToolCall implements ToolCall {
  id!: string;
  traceId!: string;
  spanId?: string;
  name!: string;
  ref?: string;
  status!: ToolCall['status'];
  restarted!: boolean;
  resumedMetadata?: unknown;
  interrupt?: ToolCall['interrupt'];
  parked!: boolean;
  errorMessage?: string;
  resolvedBy!: ToolCall['resolvedBy'];
  #rawInput: Span['attributes'][string] | undefined;
  #rawOutput: Span['attributes'][string] | undefined;
  #input?: { value: unknown };
  #output?: { value: unknown };

  constructor(fields: Omit<ToolCall, 'input' | 'output'>, rawInput: Span['attributes'][string] | undefined, rawOutput: Span['attributes'][string] | undefined) {
    Object.assign(this, fields);
    this.#rawInput = rawInput;
    this.#rawOutput = rawOutput;
  }

  get input(): unknown {
    this.#input ??= { value: jsonAttributeOrUndefined(this.#rawInput) };
    return this.#input.value;
  }
  set input(value: unknown) {
    this.#input = { value };
  }
  get output(): unknown {
    this.#output ??= { value: jsonAttributeOrUndefined(this.#rawOutput) };
    return this.#output.value;
  }
  set output(value: unknown) {
    this.#output = { value };
  }
  toJSON(): ToolCall {
    return { ...this, input: this.input, output: this.output };
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function buildModelCall(index: SpanIndex, span: Span): ModelCall {
  const classification = index.classify(span);
  const output = jsonAttributeOrUndefined(span.attributes['genkit:output']);
  const message = isObject(output) ? output.message : undefined;
  return {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    model: classification.label,
    status: classification.outcome === 'running' ? 'running' : classification.outcome === 'error' ? 'error' : 'ok',
    toolRequests: toolRequestParts(message).map((part) => part.request),
    text: messageText(message),
    finishReason: isObject(output) ? stringOf(output.finishReason) : undefined,
    errorMessage: classification.errorMessage,
  };
}

/** A tool call from its span; `request` supplies the ref the span does not record. */
export function buildToolCall(index: SpanIndex, span: Span, request?: ToolRequestData): ToolCall {
  const classification = index.classify(span);
  const interruptAttribute = span.attributes['genkit:metadata:interrupt'];
  let interrupt: ToolCall['interrupt'];
  if (classification.outcome === 'interrupted') {
    interrupt =
      interruptAttribute !== undefined
        ? { metadata: jsonAttributeOrUndefined(interruptAttribute) ?? interruptAttribute, evidence: 'attribute' }
        : { metadata: true, evidence: 'exception' };
  }
  const resumedAttribute = span.attributes['genkit:metadata:resumed'];
  return new RecordedToolCall(
    {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    name: classification.label,
    ref: request?.ref,
    status: classification.outcome,
    restarted: classification.restarted,
    answeredByHand: span.attributes[ANSWERED_BY_HAND_ATTRIBUTE] === 'true' ? true : undefined,
    resumedMetadata: resumedAttribute !== undefined ? (jsonAttributeOrUndefined(resumedAttribute) ?? resumedAttribute) : undefined,
    interrupt,
    parked: false,
    errorMessage: classification.errorMessage,
    resolvedBy: [],
    },
    span.attributes['genkit:input'],
    span.attributes['genkit:output'],
  );
}

/**
 * Pairs the model's tool requests with the tool spans of the turn. The span does not record
 * the request's `ref`, so pairing is by name and input, then by name in order. A request
 * with no span (unknown tool, the generate failed first) becomes a `not-run` call.
 */
function pairToolCalls(index: SpanIndex, turnId: string, requests: ToolRequestData[], toolSpans: Span[]): ToolCall[] {
  const unused = [...toolSpans];
  const take = (predicate: (span: Span) => boolean) => {
    const position = unused.findIndex(predicate);
    return position < 0 ? undefined : unused.splice(position, 1)[0];
  };
  const calls = requests.map((request) => {
    // genkit records the input with JSON.stringify of the same object: compare the text
    // first (no parse), then the parsed value, then fall back to the name in order.
    const inputText = JSON.stringify(request.input);
    // The canonical form only when the text did not match (rare): it re-serialises the input.
    let inputJson: string | undefined;
    const span =
      take((candidate) => index.classify(candidate).label === request.name && candidate.attributes['genkit:input'] === inputText) ??
      take((candidate) => index.classify(candidate).label === request.name && canonicalJson(jsonAttributeOrUndefined(candidate.attributes['genkit:input'])) === (inputJson ??= canonicalJson(request.input))) ??
      take((candidate) => index.classify(candidate).label === request.name);
    if (span) return buildToolCall(index, span, request);
    return {
      id: `${turnId}:request:${requestLabel(request)}`,
      traceId: turnId.split(':')[0],
      name: request.name,
      ref: request.ref,
      input: request.input,
      status: 'not-run' as const,
      restarted: false,
      parked: false,
      resolvedBy: [],
    };
  });
  return [...calls, ...unused.map((span) => buildToolCall(index, span))];
}

function buildResolutions(options: {
  generateId: string;
  input: Record<string, unknown>;
  errorMessage?: string;
  resumeToolCalls: ToolCall[];
}): Resolution[] {
  const resume = isObject(options.input.resume) ? options.input.resume : {};
  const respondParts = Array.isArray(resume.respond) ? resume.respond.filter(isObject) : [];
  const restartParts = Array.isArray(resume.restart) ? resume.restart.filter(isObject) : [];
  const messages = inputMessages(options.input);
  const last = messages[messages.length - 1];
  const requests = last?.role === 'model' ? toolRequestParts(last) : [];
  const unusedRestarts = [...options.resumeToolCalls];

  return requests.map(({ request, metadata }) => {
    const label = requestLabel(request);
    const id = `${options.generateId}:resume:${label}`;
    const matches = (part: Record<string, unknown>, key: 'toolResponse' | 'toolRequest') => {
      const inner = part[key];
      return isObject(inner) && inner.name === request.name && (stringOf(inner.ref) ?? '') === (request.ref ?? '');
    };
    const respond = respondParts.find((part) => matches(part, 'toolResponse'));
    if (respond) {
      return { id, kind: 'respond' as const, request, output: (respond.toolResponse as { output?: unknown }).output };
    }
    const restart = restartParts.find((part) => matches(part, 'toolRequest'));
    if (restart) {
      const restartMetadata = isObject(restart.metadata) ? restart.metadata : {};
      const newInput = (restart.toolRequest as { input?: unknown }).input;
      const position = unusedRestarts.findIndex((call) => call.name === request.name);
      const ran = position >= 0 ? unusedRestarts.splice(position, 1)[0] : undefined;
      if (ran) ran.ref = request.ref;
      return {
        id,
        kind: 'restart' as const,
        request,
        resumed: restartMetadata.resumed ?? true,
        replacedInput: restartMetadata.replacedInput !== undefined ? newInput : undefined,
        restartedToolCallId: ran?.id,
      };
    }
    // genkit names each request it could not resolve; everything else was pendingOutput.
    // (The recorded history may have lost the pendingOutput marker: genkit 1.42 bug 3.)
    if (options.errorMessage?.includes(`'${label}'`) && /Unresolved tool request/.test(options.errorMessage)) {
      return { id, kind: 'unresolved' as const, request };
    }
    // The reused output: from the marker when genkit left it, else from the parked call once linked.
    return { id, kind: 'pending' as const, request, output: metadata.pendingOutput };
  });
}

/** A top-level generate call and the parts of its recorded input/output that were parsed to build it. */
export interface BuiltGenerateCall {
  call: GenerateCall;
  /** The parsed `genkit:input`, for a resume (other inputs are not parsed). */
  input?: Record<string, unknown>;
  /** The parsed `genkit:output`, for an interrupted generate (other outputs are not parsed). */
  output?: Record<string, unknown>;
}

/** Builds one top-level generate call — its turns, tool calls and resume — from its span. */
export function buildGenerateCall(index: SpanIndex, root: Span, flowSpanId?: string): BuiltGenerateCall {
  const id = spanKey(root);
  const classification = index.classify(root);
  // A generate's input and output repeat the whole history and tool schemas: parse the
  // input only for a resume, the output only when interrupted.
  const rawInput = root.attributes['genkit:input'];
  const isResume = typeof rawInput === 'string' ? rawInput.includes('"resume"') : isObject(rawInput) && rawInput.resume !== undefined;
  const input = isResume ? jsonAttributeOrUndefined(rawInput) : undefined;
  const inputObject = isObject(input) ? input : {};
  const outputInterrupted = classification.outcome === 'interrupted';
  const output = outputInterrupted ? jsonAttributeOrUndefined(root.attributes['genkit:output']) : undefined;
  const outputObject = isObject(output) ? output : {};

  const turns: Turn[] = [];
  let resumeToolCalls: ToolCall[] = [];
  const seen = new Set<Span>();
  for (let current: Span | undefined = root; current && !seen.has(current); ) {
    seen.add(current);
    const children = index.childrenOf(current);
    const modelSpan = children.find((child) => index.classify(child).role === 'model');
    const toolSpans = children.filter((child) => index.classify(child).role === 'tool');
    if (modelSpan) {
      const model = buildModelCall(index, modelSpan);
      const turnId = spanKey(current);
      turns.push({ index: turns.length, generateSpanId: current.spanId, model, toolCalls: pairToolCalls(index, turnId, model.toolRequests, toolSpans) });
    } else if (toolSpans.length > 0 && current === root && isResume) {
      // A resume generate runs its restarts before recursing into its first model turn.
      resumeToolCalls = toolSpans.map((span) => buildToolCall(index, span));
    } else if (toolSpans.length > 0) {
      // Tool spans whose model span never arrived (lost, or another exporter): still a turn.
      turns.push({ index: turns.length, generateSpanId: current.spanId, toolCalls: pairToolCalls(index, spanKey(current), [], toolSpans) });
    }
    current = children.find((child) => index.classify(child).role === 'generate');
  }

  // Interrupt markers in the final message: evidence for interrupts whose span shows none.
  const finalMessage = outputObject.message;
  const pendingInterrupts = toolRequestParts(finalMessage)
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
  const finishReason = outputInterrupted ? (stringOf(outputObject.finishReason) ?? 'interrupted') : lastModel?.finishReason;
  let status: GenerateCall['status'];
  if (classification.outcome === 'running') status = 'running';
  else if (classification.outcome === 'error') status = 'error';
  else if (finishReason === 'interrupted' || classification.outcome === 'interrupted') status = 'interrupted';
  else status = 'ok';
  const errorMessage = status === 'error' ? classification.errorMessage : undefined;

  const resume =
    isResume && inputObject.resume !== undefined
      ? { resolutions: buildResolutions({ generateId: id, input: inputObject, errorMessage, resumeToolCalls }) }
      : undefined;
  const notes = knownBugNotes({ errorMessage, resumeToolCalls, turns, resolutions: resume?.resolutions ?? [] });

  const firstModel = turns.find((turn) => turn.model)?.model?.model;

  const call: GenerateCall = {
    id,
    traceId: root.traceId,
    spanId: root.spanId,
    flowSpanId,
    startTime: nanosToMillis(root.startTimeUnixNano),
    endTime: root.endTimeUnixNano !== undefined ? nanosToMillis(root.endTimeUnixNano) : undefined,
    status,
    finishReason: status === 'ok' || status === 'interrupted' ? finishReason : undefined,
    errorMessage,
    errorStatus: errorMessage ? STATUS_PREFIX.exec(errorMessage)?.[1] : undefined,
    model: stringOf(inputObject.model) ?? firstModel,
    turns,
    resumeToolCalls,
    resume,
    pendingInterrupts: pendingInterrupts.map((part) => part.request),
    text: status === 'ok' ? lastModel?.text : undefined,
    notes,
  };
  return { call, input: isObject(input) ? input : undefined, output: isObject(output) ? output : undefined };
}

/** Names the genkit 1.42 resume bugs (INTERRUPT-MODEL.md §7) visible within one generate. */
function knownBugNotes(options: { errorMessage?: string; resumeToolCalls: ToolCall[]; turns: Turn[]; resolutions: Resolution[] }): string[] {
  const notes: string[] = [];
  if (options.errorMessage?.includes("reading 'tools'") && options.resumeToolCalls.some((call) => call.status === 'interrupted')) {
    notes.push('genkit 1.42 bug 1: the restarted tool interrupted again and genkit crashed with a TypeError instead of a FAILED_PRECONDITION error.');
  }
  if (options.resolutions.some((resolution) => resolution.replacedInput !== undefined)) {
    notes.push('genkit 1.42 bug 2: replaceInput ran the tool with the new input, but the history the model sees keeps the original input.');
  }
  const refless = new Map<string, number>();
  for (const call of options.turns.flatMap((turn) => turn.toolCalls)) {
    if (call.status === 'interrupted' && !call.ref) refless.set(call.name, (refless.get(call.name) ?? 0) + 1);
  }
  for (const resolution of options.resolutions) {
    if (!resolution.request.ref) refless.set(resolution.request.name, (refless.get(resolution.request.name) ?? 0) + 1);
  }
  for (const [name, count] of refless) {
    if (count > 1) notes.push(`genkit 1.42 bug 4: ${count} interrupted calls of ${name} have no ref, so they cannot be answered separately: each gets the first answer.`);
  }
  return notes;
}
