import path from 'node:path';
import type { Span } from '../../spans/span';
import { TraceStore } from '../trace-store';

/** The captured traces of a data folder as another process sees them (a store of its own, closed after): trace id → spans. */
export async function capturedTracesIn(dataDir: string): Promise<Map<string, Span[]>> {
  const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  try {
    const traces = new Map<string, Span[]>();
    for (const summary of await store.list()) traces.set(summary.traceId, (await store.getCaptured(summary.traceId)) ?? []);
    return traces;
  } finally {
    await store.close();
  }
}
