/**
 * Stores a trace made outside the server (by the CLI) in the captured-trace store, safely
 * when a Loopscope server is running on the same data dir.
 *
 * Why not simply `new TraceStore(dataDir).append(spans)`: the server's TraceStore reads
 * `index.json` once and keeps it in memory; it rewrites the whole file from memory after each
 * append. A trace another process added is therefore neither listed by the running server nor
 * kept in the index after the server's next write (checked with two TraceStore instances on one
 * dir: the first never listed the second's trace, and its next append dropped it). So when
 * a server answers on this machine, the spans go through its OTLP receiver (`POST /v1/traces`,
 * the door every other exporter uses): the server stays the only writer of its index, and open
 * pages hear about the trace at once. Only when no server stores it here does the CLI write
 * with its own TraceStore, which reads the index right before writing and writes atomically.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { summarizeCapturedTrace } from '../graph/trace-sessions';
import { encodeOtlpJson } from '../trace/otlp-json';
import type { Span } from '../trace/span';
import { TraceStore } from '../trace/trace-store';

export interface StoredTrace {
  traceIds: string[];
  /** `server`: stored by the running server's receiver; `direct`: written by this process. */
  via: 'server' | 'direct';
  /** Why the server was not used although one answered (another data dir, a refusal). */
  note?: string;
}

const exists = (file: string) => access(file).then(
  () => true,
  () => false,
);

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
  const tracePaths = traceIds.map((traceId) => path.join(options.dataDir, 'traces', `${traceId}.json`));
  let note: string | undefined;
  if (options.serverUrl) {
    const answer = await postToServer(options.serverUrl, options.spans);
    if (answer?.ok) {
      // The receiver answers after the store wrote: the files are there iff it uses our data dir.
      if ((await Promise.all(tracePaths.map(exists))).every(Boolean)) return { traceIds, via: 'server' };
      note = `the server at ${options.serverUrl} stores into another data dir; wrote ${options.dataDir} directly (a server on that dir lists it after a restart)`;
    } else if (answer) {
      note = `the server at ${options.serverUrl} refused the spans (${answer.detail}); wrote ${options.dataDir} directly`;
    }
  }
  const store = new TraceStore({
    dataDir: options.dataDir,
    savedDir: options.savedDir,
    summarize: summarizeCapturedTrace,
  });
  await store.append(options.spans);
  return { traceIds, via: 'direct', note };
}
