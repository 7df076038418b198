/**
 * What the reflection API's `POST /api/runAction` answered, read into one outcome. genkit JS
 * 1.42 answers `{result, telemetry: {traceId}}` on success and `{error: {code, message,
 * details: {stack, traceId}}}` on failure (HTTP 200 either way once the action started).
 *
 * A tool that interrupts, run on its own (not inside a generate), is not reported as an
 * interrupt: genkit answers `{error: {code: 13, message: "", details: {stack:
 * "ToolInterruptError\n at …"}}}` — INTERNAL with an empty message and no interrupt metadata
 * (genkit #4637, a fix proposed in #5825; docs/interrupt-model.md §7, bug 5, measured here on
 * 1.42.0 for `/tool/…` and `/tool.v2/…`). The stack's first line is the only evidence, so that
 * is what is read; the metadata, when the tool passed one, is on the tool span of the trace
 * (`genkit:metadata:interrupt`).
 * genkit Go 1.12 and Python 0.12 report it as code 13 too, each with its own message (measured,
 * docs/attach-runtimes.md): Go with the data as JSON after a blank line, Python without it.
 */
import type { RunActionResult } from '../../contract/runtimes';

/** genkit's numeric status codes (google.rpc.Code) → names, for the ones an action returns. */
const STATUS_NAMES: Record<number, string> = {
  1: 'CANCELLED',
  2: 'UNKNOWN',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  10: 'ABORTED',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
};

type Answer = Pick<RunActionResult, 'outcome' | 'traceId' | 'output' | 'error' | 'note'>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A generate's (or a flow's) output that says it stopped for an interrupt. */
function interruptedOutput(output: unknown): boolean {
  return isRecord(output) && output.finishReason === 'interrupted';
}

/**
 * @param options.body the parsed JSON answer
 * @param options.headerTraceId the `X-Genkit-Trace-Id` header (set as soon as the action's span starts)
 */
export function readRunActionAnswer(options: { body: unknown; headerTraceId?: string }): Answer {
  const { body, headerTraceId } = options;
  if (!isRecord(body)) return { outcome: 'error', traceId: headerTraceId, error: { code: 'INTERNAL', message: 'The runtime answered runAction with something other than a JSON object.' } };
  if (isRecord(body.error)) {
    const error = body.error;
    const details = isRecord(error.details) ? error.details : {};
    const traceId = typeof details.traceId === 'string' ? details.traceId : headerTraceId;
    const stack = typeof details.stack === 'string' ? details.stack : '';
    const code = typeof error.code === 'number' ? (STATUS_NAMES[error.code] ?? String(error.code)) : typeof error.code === 'string' ? error.code : 'UNKNOWN';
    const message = typeof error.message === 'string' ? error.message : '';
    if (/^ToolInterruptError\b/.test(stack)) {
      return {
        outcome: 'interrupted',
        traceId,
        error: { code: 'INTERRUPTED', message: message || 'The tool interrupted.' },
        note: 'The tool called interrupt(). Run on its own, genkit reports that as an INTERNAL error with an empty message and no interrupt data (genkit #4637); run it inside a generate to answer it.',
      };
    }
    // genkit Go 1.12: `tool execution interrupted: \n\n<the interrupt data as JSON>` (code 13).
    const goInterrupt = /^tool execution interrupted: \s*([\s\S]*)$/.exec(message);
    if (goInterrupt && code === 'INTERNAL') {
      return { outcome: 'interrupted', traceId, error: { code: 'INTERRUPTED', message: goInterrupt[1] ? `The tool interrupted with ${goInterrupt[1].replace(/\s+/g, ' ')}.` : 'The tool interrupted.' }, note: 'The tool called tool.Interrupt. Run on its own, genkit Go reports that as an INTERNAL error with the data in its message; run it inside a generate to answer it.' };
    }
    // genkit Python 0.12: `Error while running action <name>: Interrupt()` (code 13); the data is only on the span.
    if (code === 'INTERNAL' && /^Error while running action [^:]+: Interrupt\(\)$/.test(message)) {
      return { outcome: 'interrupted', traceId, error: { code: 'INTERRUPTED', message: 'The tool interrupted.' }, note: 'The tool raised Interrupt. Run on its own, genkit Python reports that as an INTERNAL error without the data (it is on the tool span, genkit:metadata:interrupt); run it inside a generate to answer it.' };
    }
    // An error before the action's span started (e.g. its input failed the schema) goes through
    // genkit's express error handler: always code 13, the real status only in the message.
    const named = /^([A-Z][A-Z_]+): ([\s\S]*)$/.exec(message);
    if (named && code === 'INTERNAL') return { outcome: 'error', traceId, error: { code: named[1], message: named[2] } };
    return { outcome: 'error', traceId, error: { code, message: message || '(genkit gave no message)' } };
  }
  const telemetry = isRecord(body.telemetry) ? body.telemetry : {};
  const traceId = typeof telemetry.traceId === 'string' ? telemetry.traceId : headerTraceId;
  return { outcome: interruptedOutput(body.result) ? 'interrupted' : 'ok', traceId, output: body.result as RunActionResult['output'] };
}
