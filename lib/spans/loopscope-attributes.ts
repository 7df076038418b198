/**
 * Attributes Loopscope itself adds to runtimes' spans (shared by the runner, the server, the
 * dialects and the page; no dependencies).
 */

/**
 * Marks a span that Loopscope ended because its runtime never did: `runner-died` (closed by the
 * server when the runner process died), `run-ended` (closed by the runner when the run ended
 * with the span still open, e.g. a tool past its time limit) or `run-stopped` (the user stopped
 * the run while it ran). The rest of the closing is the runtime's own shape (lib/loop/open-spans.ts).
 */
export const CLOSED_BY_ATTRIBUTE = 'loopscope:closed-by';

/** The `ref` of the tool request a tool span executes (genkit's own span does not record it). */
export const TOOL_REF_ATTRIBUTE = 'loopscope:tool-ref';

/**
 * On the resource of spans that arrived through Loopscope's genkit telemetry-server door
 * (`POST /genkit/api/traces`, where an attached genkit app sends them): value `genkit-telemetry`.
 * genkit's TraceData carries no resource, so this is what tells an app's trace from the built-in
 * runner's — a resume of it must run in the app.
 */
export const CAPTURED_THROUGH_ATTRIBUTE = 'loopscope:captured-through';
export const CAPTURED_THROUGH_GENKIT_TELEMETRY = 'genkit-telemetry';
