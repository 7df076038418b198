/**
 * Stores a trace made outside the server (by the CLI) in the captured-trace store, safely
 * when a Loopscope server is running on the same data dir.
 *
 * When a server answers on this machine, the spans go through its OTLP receiver
 * (`POST /v1/traces`, the door every other exporter uses), so that open pages hear about the
 * trace at once. Only when no server stores it here does the CLI write with its own
 * TraceStore: the store is a SQLite database that several processes may write at once (WAL),
 * so the server lists such a trace too, on its next listing.
 */
import { summarizeCapturedTrace } from '../graph/trace-sessions';
import { encodeOtlpJson } from '../spans/otlp-json';
import type { Span } from '../spans/span';
import { TraceStore } from '../store/trace-store';

export interface StoredTrace {
  traceIds: string[];
  /** `server`: stored by the running server's receiver; `direct`: written by this process. */
  via: 'server' | 'direct';
  /** Why the server was not used although one answered (another data dir, a refusal). */
  note?: string;
}

/** Offers the spans to a server's OTLP receiver; undefined when none answered at all. */
async function postToServer(serverUrl: string, spans: Span[]): Promise<{ ok: boolean; detail: string } | undefined> {
  try {
    // No token and no Origin: the receiver accepts token-less exporters that are not browsers.
    const response = await fetch(new URL('/v1/traces', serverUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(encodeOtlpJson(spans)),
      signal: AbortSignal.timeout(10_000),
    });
    const detail = response.ok ? '' : `${response.status} ${(await response.text().catch(() => '')).slice(0, 200)}`;
    return { ok: response.ok, detail };
  } catch {
    // Connection refused: no server. A timeout or reset is treated the same way (write directly).
    return undefined;
  }
}

/**
 * Stores new spans in `dataDir` (never in the saved folder), through the running server when
 * it stores into the same `dataDir`, else directly. Index entries are summarized like the
 * server does (with session keys), so both ways give the same listing.
 */
export async function storeNewTrace(options: { spans: Span[]; dataDir: string; savedDir: string; serverUrl?: string }): Promise<StoredTrace> {
  const traceIds = [...new Set(options.spans.map((span) => span.traceId))];
  const store = new TraceStore({ dataDir: options.dataDir, savedDir: options.savedDir, summarize: summarizeCapturedTrace });
  let note: string | undefined;
  if (options.serverUrl) {
    const answer = await postToServer(options.serverUrl, options.spans);
    if (answer?.ok) {
      // The receiver answers after the store committed: the traces are here iff it uses our data dir.
      const here = await Promise.all(traceIds.map((traceId) => store.hasCaptured(traceId)));
      await store.close();
      if (here.every(Boolean)) return { traceIds, via: 'server' };
      note = `the server at ${options.serverUrl} stores into another data dir; wrote ${options.dataDir} directly (a server on that dir lists it after a restart)`;
    } else if (answer) {
      note = `the server at ${options.serverUrl} refused the spans (${answer.detail}); wrote ${options.dataDir} directly`;
    }
  }
  await store.append(options.spans);
  await store.close();
  return { traceIds, via: 'direct', note };
}
