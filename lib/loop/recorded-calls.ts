/**
 * What any runtime's recording holds of a tool run, as a replay plays it back: runtime-free, so
 * the replay's bookkeeping (lib/replay/replay-session.ts) serves every dialect's recording
 * (genkit-js/recording-model.ts, ai-sdk/recording-model.ts).
 */

/** Where a recorded call lives in the recording. */
export interface SpanRef {
  traceId: string;
  spanId: string;
}

export type RecordedToolOutcome =
  | { kind: 'output'; output: unknown }
  | { kind: 'interrupt'; metadata: unknown }
  | { kind: 'error'; message: string };

export interface RecordedToolExecution extends SpanRef {
  name: string;
  input: unknown;
  restarted: boolean;
  outcome: RecordedToolOutcome;
}
