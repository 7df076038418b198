import { LoopscopeError } from '../errors';
import { classifySpan } from '../trace/classify-span';
import { jsonAttributeOrUndefined } from '../trace/parse-json-attribute';
import { compareNanos, type Span } from '../trace/span';
import { isObject, messageParts, toolRequestOf } from '../graph/message-parts';

/** A tool definition as the model saw it (recorded in the generate's request). */
export interface RecordedToolDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

/** One request of the last model message and where it stands. */
export interface PendingRequest {
  name: string;
  ref?: string;
  input?: unknown;
  /** `interrupted`: needs an answer; `pending`: finished, its output parked; `done`: neither. */
  state: 'interrupted' | 'pending' | 'done';
  interruptMetadata?: unknown;
  pendingOutput?: unknown;
}

/** Everything needed to resume one interrupted generate, rebuilt from its spans. */
export interface ResumeContext {
  traceId: string;
  spanId: string;
  /** The model the generate called (from its recorded input), to resume with the same one. */
  model?: string;
  /** The exact history to send: the last model request's messages plus the interrupted model message. Copies. */
  messages: unknown[];
  tools: RecordedToolDefinition[];
  requests: PendingRequest[];
}

/**
 * Rebuilds the history and tool definitions of an interrupted generate from its root span
 * (its output records the final message and the request that produced it). The result is a
 * deep copy: genkit 1.42 rewrites the messages it is given (bug 3), never the loaded trace.
 */
export function resumeContextFrom(spans: readonly Span[], generateSpanId?: string): ResumeContext {
  const candidates = spans
    .filter((span) => classifySpan(span).role === 'generate' && classifySpan(span).outcome === 'interrupted')
    .filter((span) => generateSpanId === undefined || span.spanId === generateSpanId)
    .sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  // The outermost span of the last interrupted generate carries the full request.
  const root = candidates.filter((span) => !candidates.some((other) => other.traceId === span.traceId && other.spanId === span.parentSpanId)).at(-1);
  if (!root) {
    throw new LoopscopeError('FAILED_PRECONDITION', generateSpanId ? `Span ${generateSpanId} is not an interrupted generate.` : 'These spans hold no interrupted generate to resume.');
  }
  const output = jsonAttributeOrUndefined(root.attributes['genkit:output']);
  if (!isObject(output) || !isObject(output.message) || !isObject(output.request)) {
    throw new LoopscopeError('FAILED_PRECONDITION', 'The interrupted generate did not record its output (message and request), so its history cannot be rebuilt.');
  }
  const request = output.request;
  const history = Array.isArray(request.messages) ? request.messages : [];
  const messages = structuredClone([...history, output.message]) as unknown[];
  const tools = (Array.isArray(request.tools) ? request.tools : []).filter(isObject).map((tool) => ({
    name: String(tool.name),
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
  }));
  const requests: PendingRequest[] = [];
  for (const part of messageParts(output.message)) {
    const toolRequest = toolRequestOf(part);
    if (!toolRequest) continue;
    const metadata = part.metadata ?? {};
    const state = metadata.interrupt !== undefined ? 'interrupted' : metadata.pendingOutput !== undefined ? 'pending' : 'done';
    requests.push({ ...toolRequest, state, interruptMetadata: metadata.interrupt, pendingOutput: metadata.pendingOutput });
  }
  return {
    traceId: root.traceId,
    spanId: root.spanId,
    model: recordedModel(root),
    messages,
    tools,
    requests,
  };
}

function recordedModel(root: Span): string | undefined {
  const input = jsonAttributeOrUndefined(root.attributes['genkit:input']);
  if (isObject(input) && typeof input.model === 'string') return input.model;
  return undefined;
}
