import { ContextSlot } from './context-slot';

/** The run (and runner request) the code executing now belongs to; trace ids it made so far. */
export interface RunContext {
  runId: string;
  requestId: string;
  traceIds: Set<string>;
}

/** Which run the code currently executing in the runner belongs to. */
export const runContext = new ContextSlot<RunContext>('run');
