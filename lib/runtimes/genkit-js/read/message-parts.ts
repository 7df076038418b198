import { canonicalJson, isObject } from '../../../spans/json-value';
import type { ToolRequestData } from '../../../loop/loop-model';

// genkit names a request `name#ref` in its messages, as the graph does.
export { requestLabel } from '../../../loop/loop-model';

/** A message part as genkit records it; every field optional because recorded data is untrusted. */
export interface RecordedPart {
  text?: unknown;
  toolRequest?: { name?: unknown; ref?: unknown; input?: unknown };
  toolResponse?: { name?: unknown; ref?: unknown; output?: unknown };
  metadata?: Record<string, unknown>;
}

export interface RecordedMessage {
  role?: unknown;
  content?: unknown;
  metadata?: unknown;
}

/** The parts of a recorded message (an empty list for anything malformed). */
export function messageParts(message: unknown): RecordedPart[] {
  if (!isObject(message) || !Array.isArray(message.content)) return [];
  return message.content.filter(isObject) as RecordedPart[];
}

export function toolRequestOf(part: RecordedPart): ToolRequestData | undefined {
  const request = part.toolRequest;
  if (!isObject(request) || typeof request.name !== 'string') return undefined;
  return { name: request.name, ref: typeof request.ref === 'string' ? request.ref : undefined, input: request.input };
}

/** The content of a recorded message, when it has a list of them. */
const contentOf = (message: unknown): unknown[] | undefined => (isObject(message) && Array.isArray(message.content) ? message.content : undefined);

/** Tool requests of a message with each part's metadata. */
export function toolRequestParts(message: unknown): { request: ToolRequestData; metadata: Record<string, unknown> }[] {
  const result: { request: ToolRequestData; metadata: Record<string, unknown> }[] = [];
  for (const part of contentOf(message) ?? []) {
    if (!isObject(part)) continue;
    const request = toolRequestOf(part as RecordedPart);
    if (request) result.push({ request, metadata: isObject(part.metadata) ? part.metadata : {} });
  }
  return result;
}

/** Tool requests of a message (`toolRequestParts` without the metadata: a model call's, read for every turn of a build). */
export function toolRequestsOf(message: unknown): ToolRequestData[] {
  const requests: ToolRequestData[] = [];
  for (const part of contentOf(message) ?? []) {
    const request = isObject(part) ? toolRequestOf(part as RecordedPart) : undefined;
    if (request) requests.push(request);
  }
  return requests;
}

export function messageText(message: unknown): string | undefined {
  let text: string | undefined;
  for (const part of contentOf(message) ?? []) if (isObject(part) && typeof part.text === 'string') text = text === undefined ? part.text : text + part.text;
  return text;
}

/** The messages list of a generate or model input. */
export function inputMessages(input: unknown): RecordedMessage[] {
  if (!isObject(input) || !Array.isArray(input.messages)) return [];
  return input.messages.filter(isObject);
}

/** Same tool request: name, ref and input (never metadata, which genkit rewrites on resume — bug 3). */
export function sameRequest(a: ToolRequestData, b: ToolRequestData): boolean {
  return a.name === b.name && (a.ref ?? '') === (b.ref ?? '') && canonicalJson(a.input) === canonicalJson(b.input);
}

