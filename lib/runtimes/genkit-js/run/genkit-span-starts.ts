/**
 * What the runner reports of a genkit span when it starts (lib/runner/span-starts.ts). genkit
 * names an action's span after the action and writes `genkit:name`, `genkit:input` and
 * `genkit:state` only at its end: a start has its type, subtype, path and whether it resumes.
 */
import type { SpanStarts } from '../../../runner/span-starts';
import { TOOL_REF_ATTRIBUTE } from '../../../spans/loopscope-attributes';
import { isLoopscopeModel } from '../read/loopscope-markers';
import { claimToolRequest } from './tool-request-context';

export const genkitSpanStarts: SpanStarts = {
  attributes: ['genkit:type', 'genkit:metadata:subtype', 'genkit:name', 'genkit:path', 'genkit:metadata:resumed'],
  /** Any action (a tool, a flow, a model a tools/ module defines) but a turn of Loopscope's own models, named by the span. */
  runsCode: (attributes, spanName) => attributes['genkit:type'] === 'action' && !(attributes['genkit:metadata:subtype'] === 'model' && isLoopscopeModel(spanName)),
  /** A tool's input and ref, from the request the runner's middleware runs it for (run-generate.ts): a span that never ends would lose them. */
  atStart(attributes, spanName) {
    if (attributes['genkit:metadata:subtype'] !== 'tool') return;
    const request = claimToolRequest(spanName);
    if (request?.inputJson !== undefined) attributes['genkit:input'] = request.inputJson;
    if (request?.ref !== undefined) attributes[TOOL_REF_ATTRIBUTE] = request.ref;
  },
};
