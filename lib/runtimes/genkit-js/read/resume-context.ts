import { LoopscopeError } from '../../../errors';
import { isObject } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { Span } from '../../../spans/span';
import type { PendingRequest, ResumeContext } from '../../../loop/resume-model';
import { GENKIT_DIALECT_ID } from './dialect-id';
import { messageParts, toolRequestOf } from './message-parts';
import { readToolDefinitions } from './tool-definitions';

/**
 * Rebuilds the history and tool definitions of an interrupted generate from its root span:
 * its output records the final message and the request that produced it. The result is a
 * deep copy: genkit 1.42 rewrites the messages it is given (bug 3), never the loaded trace.
 */
export function genkitResumeContextOf(root: Span): ResumeContext {
  const output = jsonAttributeOrUndefined(root.attributes['genkit:output']);
  if (!isObject(output) || !isObject(output.message) || !isObject(output.request)) {
    throw new LoopscopeError('FAILED_PRECONDITION', 'The interrupted generate did not record its output (message and request), so its history cannot be rebuilt.');
  }
  const request = output.request;
  const history = Array.isArray(request.messages) ? request.messages : [];
  const messages = structuredClone([...history, output.message]) as unknown[];
  const requests: PendingRequest[] = [];
  for (const part of messageParts(output.message)) {
    const toolRequest = toolRequestOf(part);
    if (!toolRequest) continue;
    const metadata = part.metadata ?? {};
    const state = metadata.interrupt !== undefined ? 'interrupted' : metadata.pendingOutput !== undefined ? 'pending' : 'done';
    requests.push({ ...toolRequest, state, interruptMetadata: metadata.interrupt, pendingOutput: metadata.pendingOutput });
  }
  return {
    dialect: GENKIT_DIALECT_ID,
    traceId: root.traceId,
    spanId: root.spanId,
    model: recordedModel(root),
    messages,
    tools: readToolDefinitions(request.tools),
    requests,
  };
}

function recordedModel(root: Span): string | undefined {
  const input = jsonAttributeOrUndefined(root.attributes['genkit:input']);
  if (isObject(input) && typeof input.model === 'string') return input.model;
  return undefined;
}
