/**
 * genkit tool calls read from their spans: a tool span's outcome (ok, error, interrupt with
 * its metadata — from `genkit:metadata:interrupt`, or only the exception event), a restart's
 * resumed metadata, a call answered by hand at a pause, and the pairing of a model turn's
 * tool requests with the turn's tool spans.
 */
import { canonicalJson } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { spanKey, type Span } from '../../../spans/span';
import type { ToolCall, ToolRequestData } from '../../../loop/loop-model';
import type { SpanIndex } from '../../../loop/span-index';
import { ANSWERED_BY_HAND_ATTRIBUTE } from './loopscope-markers';
import { requestLabel } from './message-parts';

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

  constructor({ fields, rawInput, rawOutput }: { fields: Omit<ToolCall, 'input' | 'output'>; rawInput: Span['attributes'][string] | undefined; rawOutput: Span['attributes'][string] | undefined }) {
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

/** A tool call from its span; `request` supplies the ref the span does not record. */
export function buildToolCall({ index, span, request }: { index: SpanIndex; span: Span; request?: ToolRequestData }): ToolCall {
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
  return new RecordedToolCall({
    fields: {
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
    rawInput: span.attributes['genkit:input'],
    rawOutput: span.attributes['genkit:output'],
  });
}

/** A request no span ran for (an unknown tool, a call that failed first). */
function notRun({ turnId, request }: { turnId: string; request: ToolRequestData }): ToolCall {
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
}

/** Removes and returns the first span that `predicate` accepts. */
function takeFirst(spans: Span[], predicate: (span: Span) => boolean): Span | undefined {
  const position = spans.findIndex(predicate);
  return position < 0 ? undefined : spans.splice(position, 1)[0];
}

/**
 * Pairs the model's tool requests with the tool spans of the turn. The span does not record
 * the request's `ref`, so pairing is by name and input, then by name in order. A request
 * with no span (unknown tool, the generate failed first) becomes a `not-run` call.
 */
export function pairToolCalls({ index, turnId, requests, toolSpans }: { index: SpanIndex; turnId: string; requests: ToolRequestData[]; toolSpans: Span[] }): ToolCall[] {
  const unused = [...toolSpans];
  const calls = requests.map((request) => {
    // genkit records the input with JSON.stringify of the same object: compare the text
    // first (no parse), then the parsed value, then fall back to the name in order. With one
    // span of the name left (the usual case) all three take it: no input is compared.
    let first = -1;
    let several = false;
    for (let position = 0; position < unused.length && !several; position++) {
      if (index.classify(unused[position]).label !== request.name) continue;
      if (first < 0) first = position;
      else several = true;
    }
    if (first < 0) return notRun({ turnId, request });
    if (!several) return buildToolCall({ index, span: unused.splice(first, 1)[0], request });
    const inputText = JSON.stringify(request.input);
    // The canonical form only when the text did not match (rare): it re-serialises the input.
    let inputJson: string | undefined;
    const span =
      takeFirst(unused, (candidate) => index.classify(candidate).label === request.name && candidate.attributes['genkit:input'] === inputText) ??
      takeFirst(unused, (candidate) => index.classify(candidate).label === request.name && canonicalJson(jsonAttributeOrUndefined(candidate.attributes['genkit:input'])) === (inputJson ??= canonicalJson(request.input))) ??
      takeFirst(unused, (candidate) => index.classify(candidate).label === request.name);
    return span ? buildToolCall({ index, span, request }) : notRun({ turnId, request });
  });
  return [...calls, ...unused.map((span) => buildToolCall({ index, span }))];
}

