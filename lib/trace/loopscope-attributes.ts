/**
 * Attributes Loopscope itself adds to genkit's spans (shared by the runner, the server, the
 * dialects and the page; no dependencies).
 */

/**
 * Marks a span that Loopscope ended because genkit never did: `runner-died` (closed by the
 * server when the runner process died) or `run-ended` (closed by the runner when the run
 * ended with the span still open, e.g. a tool past its time limit).
 */
export const CLOSED_BY_ATTRIBUTE = 'loopscope:closed-by';

/** The `ref` of the tool request a tool span executes (genkit's own span does not record it). */
export const TOOL_REF_ATTRIBUTE = 'loopscope:tool-ref';
