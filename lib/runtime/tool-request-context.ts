import { AsyncLocalStorage } from 'node:async_hooks';
import { generateMiddleware } from 'genkit/beta';

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
 * so the tool request is carried to the span-start hook in an AsyncLocalStorage.
 */
export const toolRequestContext = new AsyncLocalStorage<ToolRequestInfo>();

/**
 * Runs each tool execution inside `toolRequestContext`. Install it innermost (after the step
 * hooks), so that the input it records is the one the tool really gets (an edited input).
 */
export function toolRequestMiddleware() {
  return generateMiddleware({ name: 'loopscope/tool-request' }, () => ({
    tool: async (request, context, next) => {
      const { name, ref, input } = request.toolRequest;
      let inputJson: string | undefined;
      try {
        inputJson = input === undefined ? undefined : JSON.stringify(input);
      } catch {
        // An input that cannot be written as JSON (a cycle): genkit fails on it itself.
      }
      return toolRequestContext.run({ name, ref, inputJson, claimed: false }, () => next(request, context));
    },
  }));
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
