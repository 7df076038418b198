import path from 'node:path';
import type { TraceStore } from '../../trace/trace-store';
import type { Span } from '../../trace/span';
import { RunnerSupervisor, type RunnerSupervisorOptions } from '../runner-supervisor';
import { startLoopbackReceiver } from '../loopback-receiver';

/**
 * A real capture path without Next: an HTTP receiver using the same decoder and store as the
 * server's `/v1/traces` route, and real runner child processes (the pool) exporting to it.
 */
export interface CaptureHarness {
  supervisor: RunnerSupervisor;
  store: TraceStore;
  /** Every span that arrived, in arrival order. */
  received: Span[];
  /** Export requests that arrived. */
  requests: number;
  /** Spans the supervisor stored itself (from a dead runner, or whose export failed), in order. */
  recovered: Span[];
  /** The receiver's URL and token, for other exporters (the genkit Go runner). */
  endpoint: string;
  token: string;
  close(): Promise<void>;
}

/**
 * `onStored` is told of every batch the receiver stored (the server publishes it on the bus
 * then); the other options go to the supervisor.
 */
export { startTestReceiver, type TestReceiver } from '../loopback-receiver';

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
    recovered: [] as Span[],
  };
  const supervisor = new RunnerSupervisor({
    projectDir: process.cwd(),
    otlpEndpoint: receiver.endpoint,
    token,
    toolsDir: path.join(process.cwd(), 'tools'),
    toolTimeoutMs: 30_000,
    heartbeatTimeoutMs: 5_000,
    memoryLimitMb: 512,
    watchTools: false,
    ingestSpans: async (spans) => {
      harness.recovered.push(...spans);
      await store.append(spans);
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
