import { ContextSlot } from '../../../runner/context-slot';

/** The tool request being executed, for the tool span that is about to start. */
export interface ToolRequestInfo {
  name: string;
  ref?: string;
  /** JSON text of the input, as genkit will record it in `genkit:input`. */
  inputJson?: string;
  /** Set once the tool's own span has taken this request (nested spans must not). */
  claimed: boolean;
}

/**
 * genkit writes a span's `genkit:input` only when the span ends, and never records the
 * request's `ref`. A span that never ends (the runner died, the tool hung) would lose both,
 * so the tool request is carried to the tool span's start (genkit-span-starts.ts) in the active
 * context (lib/runner/context-slot.ts).
 */
export const toolRequestContext = new ContextSlot<ToolRequestInfo>('tool-request');

/**
 * Runs one tool execution inside `toolRequestContext`. Called by the runner's innermost tool
 * middleware (the time limit), so that the input recorded is the one the tool really gets
 * (after an edit at a step). Not a middleware of its own: each genkit middleware layer costs
 * about as much as all of the span reporting (bench/span-outbox-overhead.bench.ts).
 */
export function withToolRequest<T>(request: { name: string; ref?: string; input?: unknown }, execute: () => Promise<T>): Promise<T> {
  let inputJson: string | undefined;
  try {
    inputJson = request.input === undefined ? undefined : JSON.stringify(request.input);
  } catch {
    // An input that cannot be written as JSON (a cycle): genkit fails on it itself.
  }
  return toolRequestContext.run({ name: request.name, ref: request.ref, inputJson, claimed: false }, execute);
}

/**
 * The request a starting tool span executes, claimed by the first tool span of that name
 * (spans the tool opens inside itself see the same context and must not claim it).
 */
export function claimToolRequest(spanName: string): ToolRequestInfo | undefined {
  const request = toolRequestContext.getStore();
  if (!request || request.claimed || request.name !== spanName) return undefined;
  request.claimed = true;
  return request;
}
