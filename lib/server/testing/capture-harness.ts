import path from 'node:path';
import type { TraceStore } from '../../store/trace-store';
import type { Span } from '../../spans/span';
import { RunnerSupervisor, type RunnerSupervisorOptions } from '../runners/runner-supervisor';
import { startLoopbackReceiver } from '../ingest/loopback-receiver';

/**
 * A real capture path without Next: real runner child processes (the pool) whose spans the
 * supervisor stores over IPC, as the server does, and an HTTP receiver using the same decoder
 * and store as the server's `/v1/traces` route, for other exporters (the genkit Go runner).
 */
export interface CaptureHarness {
  supervisor: RunnerSupervisor;
  store: TraceStore;
  /** Every span that arrived at the OTLP receiver, in arrival order. */
  received: Span[];
  /** Export requests that arrived at the OTLP receiver. */
  requests: number;
  /** Spans the supervisor stored from its runners (ended ones, and a dead runner's open ones closed), in order. */
  fromRunners: Span[];
  /** Store appends the supervisor made for them. */
  runnerWrites: number;
  /** The receiver's URL and token, for other exporters (the genkit Go runner). */
  endpoint: string;
  token: string;
  close(): Promise<void>;
}

/**
 * `onStored` is told of every batch stored, from the runners or the receiver (the server
 * publishes it on the bus then); the other options go to the supervisor.
 */
export { startTestReceiver, type TestReceiver } from '../ingest/loopback-receiver';

export async function startCaptureHarness(options: Partial<RunnerSupervisorOptions> & { onStored?: (spans: Span[]) => void } = {}): Promise<CaptureHarness> {
  const { onStored, ...supervisorOptions } = options;
  const receiver = await startLoopbackReceiver({ onStored });
  const { store, token } = receiver;
  const harness = {
    get received() {
      return receiver.received;
    },
    get requests() {
      return receiver.requests;
    },
    fromRunners: [] as Span[],
    runnerWrites: 0,
  };
  const supervisor = new RunnerSupervisor({
    projectDir: process.cwd(),
    toolsDir: path.join(process.cwd(), 'tools'),
    toolTimeoutMs: 30_000,
    heartbeatTimeoutMs: 5_000,
    memoryLimitMb: 512,
    watchTools: false,
    ingestSpans: async (spans) => {
      harness.fromRunners.push(...spans);
      harness.runnerWrites += 1;
      await store.append(spans);
      onStored?.(spans);
    },
    ...supervisorOptions,
  });
  supervisor.start();
  return Object.assign(harness, {
    supervisor,
    store,
    endpoint: receiver.endpoint,
    token,
    async close() {
      await supervisor.stop();
      await receiver.close();
    },
  });
}
