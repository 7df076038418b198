/**
 * The toy loop's own words: the attributes its spans carry and the messages of its history. A
 * made-up runtime (lib/runtimes/toy/), so everything here is its definition, not a measurement:
 * `toy.kind` = `loop` (a call) | `think` (a model turn) | `tool`; a tool's name in `toy.tool`, its
 * request id in `toy.ref`, how it ended in `toy.result` (`ok`, `paused`, `failed`, why in
 * `toy.error`); what went in and came out as JSON text in `toy.input` / `toy.output` (a loop's:
 * the history it was given and the one it ends with; a turn's: the model's request and reply).
 */
export const TOY = {
  kind: 'toy.kind',
  tool: 'toy.tool',
  ref: 'toy.ref',
  input: 'toy.input',
  output: 'toy.output',
  result: 'toy.result',
  error: 'toy.error',
  model: 'toy.model',
  text: 'toy.text',
  /** On a loop: the tools it offered the model (JSON: `[{name, description}]`). */
  tools: 'toy.tools',
  /** On a loop that answers a paused one: the answers it was given (JSON: `[{name, ref, output}]`). */
  answers: 'toy.answers',
} as const;

/** The tool whose call pauses the loop until it is answered (`approve`): the loop never runs it. */
export const PAUSING_TOOL = 'approve';

/** A tool call the model asks for. */
export interface ToyRequest {
  name: string;
  ref: string;
  input?: unknown;
}

/** A tool call's result in the history: its output, or why it failed. */
export interface ToyResult {
  name: string;
  ref: string;
  output?: unknown;
  error?: string;
}

export type ToyMessage = { role: 'user'; text: string } | { role: 'model'; text?: string; requests?: ToyRequest[] } | { role: 'tool'; results: ToyResult[] };

/** What the model is sent each turn: the history, and the names of the tools offered. */
export interface ToyModelRequest {
  messages: ToyMessage[];
  tools: string[];
}

/** What the model answers: text (the loop ends) or tool requests (the loop runs them). */
export interface ToyReply {
  text?: string;
  requests?: ToyRequest[];
}

/** An answer to a paused call: the output its request gets (the toy loop answers only by respond). */
export interface ToyAnswer {
  name: string;
  ref?: string;
  output: unknown;
}

/** The requests of the history's last model message that have no result after it: what the loop waits for. */
export function waitingRequests(messages: readonly ToyMessage[]): ToyRequest[] {
  const position = messages.findLastIndex((message) => message.role === 'model');
  const model = messages[position];
  if (!model || model.role !== 'model') return [];
  const answered = new Set(messages.slice(position + 1).flatMap((message) => (message.role === 'tool' ? message.results.map((result) => result.ref) : [])));
  return (model.requests ?? []).filter((request) => !answered.has(request.ref));
}

/** `name#ref`. */
export const requestName = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);
