/**
 * What a replay of genkit calls needs from a recording, read once from the spans: the chain of
 * top-level generate calls (and tools run on their own) in causal order, each with the options
 * it was called with, the model calls and tool executions recorded under it, and how it ended.
 * Which resume continues which generate is decided by the graph's linking (lib/graph), passed
 * in by the caller (lib/runtimes/read-recording.ts).
 */
import { LoopscopeError } from '../../../errors';
import { isObject, jsonCopy, sameJson } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { compareNanos, spanKey, type Span } from '../../../spans/span';
import type { SpanIndex } from '../../../loop/span-index';
import { isGenkitSpan } from './classify-span';
import { enclosedByCall } from './enclosed-by-call';
import { messageParts } from './message-parts';
import type { GenerateStep, RecordedModelCall, RecordedToolDefinition, RecordedToolExecution, RecordedToolOutcome, Recording, ReplayStep, ResumeContinuation, StepOutcome } from './recording-model';
import { readToolDefinition } from './tool-definitions';

export type * from './recording-model';

/**
 * One object per distinct JSON schema, across recordings: genkit compiles a validator per
 * schema object (ajv, cached by identity), so replaying a file again reuses the compiled ones.
 */
const SCHEMAS = new Map<string, unknown>();
function internSchema(schema: unknown): unknown {
  if (schema === undefined || schema === null || typeof schema !== 'object') return schema;
  const key = JSON.stringify(schema);
  const known = SCHEMAS.get(key);
  if (known !== undefined) return known;
  if (SCHEMAS.size >= 1_000) SCHEMAS.delete(SCHEMAS.keys().next().value as string);
  SCHEMAS.set(key, schema);
  return schema;
}

/** A tool definition read by the codec, its schemas interned (see above). */
function toolDefinition(tool: unknown): RecordedToolDefinition | undefined {
  const definition = readToolDefinition(tool);
  if (!definition) return undefined;
  return { ...definition, inputSchema: internSchema(definition.inputSchema), outputSchema: internSchema(definition.outputSchema) };
}

function parsed(span: Span, attribute: string): unknown {
  return jsonAttributeOrUndefined(span.attributes[attribute]);
}

function byTime(a: Span, b: Span): number {
  return compareNanos(a.startTimeUnixNano, b.startTimeUnixNano) || compareNanos(a.endTimeUnixNano ?? a.startTimeUnixNano, b.endTimeUnixNano ?? b.startTimeUnixNano);
}

/**
 * The spans under a root in causal order. Start times are often rounded to the millisecond
 * (a scripted turn takes microseconds), so the order comes from the structure: a generate's
 * own spans (its model call, its tools) before those of the nested generate of the next turn.
 */
function causalDescendants(index: SpanIndex, root: Span): Span[] {
  const out: Span[] = [];
  let level: Span | undefined = root;
  for (let depth = 0; level && depth < 100_000; depth++) {
    const own: Span[] = [];
    let next: Span | undefined;
    const stack = [...index.childrenOf(level)];
    while (stack.length > 0) {
      const span = stack.pop()!;
      if (index.classify(span).role === 'generate') {
        // The next turn is a direct child; a generate run inside a tool is not this loop's.
        if (index.parentOf(span) === level && (!next || byTime(span, next) < 0)) next = span;
        continue;
      }
      own.push(span);
      stack.push(...index.childrenOf(span));
    }
    out.push(...own.sort(byTime));
    level = next;
  }
  return out;
}

function toolExecution(index: SpanIndex, span: Span): RecordedToolExecution {
  const classification = index.classify(span);
  let outcome: RecordedToolOutcome;
  if (classification.outcome === 'interrupted') {
    const raw = span.attributes['genkit:metadata:interrupt'];
    const metadata = raw === undefined ? undefined : jsonAttributeOrUndefined(raw);
    outcome = { kind: 'interrupt', metadata: metadata === true ? undefined : metadata };
  } else if (classification.outcome === 'error') {
    outcome = { kind: 'error', message: classification.errorMessage ?? span.status.message ?? '' };
  } else {
    outcome = { kind: 'output', output: parsed(span, 'genkit:output') };
  }
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    name: classification.label,
    input: parsed(span, 'genkit:input'),
    restarted: classification.restarted,
    outcome,
  };
}

function stepOutcome(index: SpanIndex, span: Span): StepOutcome {
  const classification = index.classify(span);
  const output = parsed(span, 'genkit:output');
  if (classification.outcome === 'error') return { kind: 'error', message: classification.errorMessage ?? span.status.message ?? '' };
  const message = isObject(output) ? output.message : undefined;
  if (classification.outcome === 'interrupted') return { kind: 'interrupted', message };
  const finishReason = isObject(output) && typeof output.finishReason === 'string' ? output.finishReason : 'unknown';
  return { kind: 'finished', finishReason, message };
}

/** A model call whose request (the whole history: large) is parsed only when someone reads it. */
function recordedModelCall(span: Span, fields: Omit<RecordedModelCall, 'request'>): RecordedModelCall {
  let request: Record<string, unknown> | undefined;
  return Object.defineProperty(fields, 'request', {
    enumerable: true,
    get() {
      if (!request) {
        const value = parsed(span, 'genkit:input');
        request = isObject(value) ? value : {};
      }
      return request;
    },
  }) as RecordedModelCall;
}

/** `resolvedInterrupt` back to `interrupt`: genkit 1.42 rewrites a resume's history before it is recorded (bug 3). */
function unmutateHistory(messages: unknown[], pending: Map<string, unknown>): unknown[] {
  const history = jsonCopy(messages);
  const last = history.at(-1);
  if (!isObject(last) || last.role !== 'model') return history;
  for (const part of messageParts(last)) {
    const request = isObject(part.toolRequest) ? part.toolRequest : undefined;
    if (!request) continue;
    const metadata = isObject(part.metadata) ? part.metadata : {};
    if ('resolvedInterrupt' in metadata) {
      metadata.interrupt = metadata.resolvedInterrupt;
      delete metadata.resolvedInterrupt;
    }
    const key = `${String(request.name)}#${String(request.ref ?? '')}`;
    if (!('interrupt' in metadata) && !('pendingOutput' in metadata) && pending.has(key)) metadata.pendingOutput = pending.get(key);
    (part as Record<string, unknown>).metadata = metadata;
  }
  return history;
}

/**
 * Reads the replayable chain out of any set of genkit spans (one or several traces).
 * `continuation`: for a resume generate, what the graph's linking says it answers; `enclosed`:
 * whether a span belongs to a call (default genkit JS's rule; genkit Go's dialect passes its own).
 * Fails with a clear error when there is nothing to replay or a generate did not record its input.
 */
export function readGenkitRecording(options: {
  index: SpanIndex;
  continuation: (generateId: string) => ResumeContinuation | undefined;
  enclosed?: (index: SpanIndex, span: Span) => boolean;
}): Recording {
  const enclosed = options.enclosed ?? enclosedByCall;
  const { index } = options;
  const steps: ReplayStep[] = [];
  const toolDefinitions = new Map<string, RecordedToolDefinition>();
  const models = new Set<string>();

  // Top-level generates (not nested in another generate) and tools run outside any generate.
  const roots: { span: Span; kind: 'generate' | 'tool' }[] = [];
  for (const span of index.spans) {
    const role = index.classify(span).role;
    if ((role === 'generate' || role === 'tool') && isGenkitSpan(span) && !enclosed(index, span)) roots.push({ span, kind: role });
  }
  roots.sort((a, b) => byTime(a.span, b.span));

  const resumeOf = options.continuation;
  const stepOfGenerate = new Map<string, number>();
  for (const { span, kind } of roots) {
    const position = steps.length;
    const inside = causalDescendants(index, span);
    const toolExecutions = inside.filter((child) => index.classify(child).role === 'tool').map((child) => toolExecution(index, child));
    if (kind === 'tool') {
      const execution = toolExecution(index, span);
      steps.push({
        kind: 'tool',
        index: position,
        traceId: span.traceId,
        spanId: span.spanId,
        label: `${execution.name} run on its own`,
        name: execution.name,
        input: execution.input,
        outcome: execution.outcome.kind === 'error' ? { kind: 'error', message: execution.outcome.message } : execution.outcome.kind === 'interrupt' ? { kind: 'error', message: '' } : { kind: 'finished', finishReason: 'stop', message: execution.outcome.output },
        toolExecutions: [execution],
      });
      continue;
    }
    const options = parsed(span, 'genkit:input');
    if (!isObject(options)) {
      throw new LoopscopeError('FAILED_PRECONDITION', `The generate span ${span.spanId} of trace ${span.traceId} did not record its input, so it cannot be replayed.`);
    }
    const model = typeof options.model === 'string' ? options.model : 'unknown-model';
    models.add(model);
    const modelCalls: RecordedModelCall[] = [];
    for (const child of inside) {
      if (index.classify(child).role !== 'model') continue;
      const response = parsed(child, 'genkit:output');
      const classification = index.classify(child);
      const rawInput = child.attributes['genkit:input'];
      const call = recordedModelCall(child, {
        traceId: child.traceId,
        spanId: child.spanId,
        ordinal: modelCalls.length + 1,
        model: classification.label,
        rawRequest: typeof rawInput === 'string' ? rawInput : undefined,
        response: classification.outcome === 'error' ? undefined : isObject(response) ? response : {},
        errorMessage: classification.outcome === 'error' ? (classification.errorMessage ?? '') : undefined,
      });
      // The tools offered are the same on every turn of a generate: read them from its first call.
      if (modelCalls.length === 0) {
        for (const tool of Array.isArray(call.request.tools) ? call.request.tools : []) {
          const definition = toolDefinition(tool);
          if (definition) toolDefinitions.set(definition.name, definition);
        }
      }
      modelCalls.push(call);
    }
    // Tool definitions of a generate that failed before its first model call live in its output request.
    const output = modelCalls.length === 0 ? parsed(span, 'genkit:output') : undefined;
    const recordedRequest = isObject(output) && isObject(output.request) ? output.request : undefined;
    for (const tool of recordedRequest && Array.isArray(recordedRequest.tools) ? recordedRequest.tools : []) {
      const definition = toolDefinition(tool);
      if (definition && !toolDefinitions.has(definition.name)) toolDefinitions.set(definition.name, definition);
    }
    const generateId = spanKey(span);
    const step: GenerateStep = {
      kind: 'generate',
      index: position,
      traceId: span.traceId,
      spanId: span.spanId,
      label: `generate ${steps.filter((candidate) => candidate.kind === 'generate').length + 1}${options.resume ? ' (resume)' : ''}`,
      options,
      model,
      modelCalls,
      toolExecutions,
      outcome: stepOutcome(index, span),
    };
    if (options.resume !== undefined) {
      const continuation = resumeOf(generateId);
      const parent = continuation?.answersGenerateId === undefined ? undefined : stepOfGenerate.get(continuation.answersGenerateId);
      if (parent !== undefined) {
        step.continues = parent;
        const earlier = steps.find((candidate) => candidate.kind === 'generate' && candidate.continues === parent && sameJson(candidate.options.resume, options.resume));
        if (earlier) step.retryOf = earlier.index;
      }
      step.history = unmutateHistory(Array.isArray(options.messages) ? options.messages : [], continuation?.pendingOutputs ?? new Map());
    }
    stepOfGenerate.set(generateId, position);
    steps.push(step);
  }
  if (steps.length === 0) {
    throw new LoopscopeError('FAILED_PRECONDITION', 'These spans hold no generate call and no tool call to replay.');
  }
  // Tools run on their own (bug 5) are offered nowhere: define them from their spans.
  for (const step of steps) {
    for (const execution of step.toolExecutions) {
      if (!toolDefinitions.has(execution.name)) toolDefinitions.set(execution.name, { name: execution.name });
    }
  }
  return { steps, toolDefinitions, models, spanCount: index.spans.length };
}
