/**
 * Forwards every OTLP/HTTP trace export the receiver accepted, unchanged (the same bytes, the
 * same Content-Type and Content-Encoding), to an upstream OTLP/HTTP endpoint — an OpenTelemetry
 * Collector, Jaeger, Tempo — so Loopscope can sit in front of the tracing a team already runs
 * (`LOOPSCOPE_FORWARD_OTLP=<url>`). Exports leave one at a time, in the order received; a
 * failed send (network error, 429, 5xx) is retried with backoff (honouring `Retry-After`) until
 * it is accepted, so upstream gets each export once and in order. An export upstream refuses
 * for good (another 4xx) is dropped and counted. The buffer is bounded in bytes: when upstream
 * stays down, the oldest waiting exports are dropped (counted, their spans too), never the
 * server's memory.
 */
import { errorMessage } from '../../errors';

export interface ForwardedExport {
  body: Uint8Array;
  contentType: string;
  contentEncoding?: string;
  /** How many spans it holds (for the counts). */
  spans: number;
}

export interface ForwarderStatus {
  url: string;
  /** Exports waiting (the one in flight included) and their bytes. */
  queued: number;
  queuedBytes: number;
  sentExports: number;
  sentSpans: number;
  /** Dropped: the buffer overflowed while upstream was down, or upstream refused them for good. */
  droppedExports: number;
  droppedSpans: number;
  /** The last failure, until a send succeeds again. */
  lastError?: string;
}

export interface OtlpForwarderOptions {
  url: string;
  /** Sent with every export (OTEL_EXPORTER_OTLP_HEADERS style, from LOOPSCOPE_FORWARD_OTLP_HEADERS). */
  headers?: Record<string, string>;
  /** The buffer's bound (default 64 MiB). */
  maxBufferBytes?: number;
  /** The first retry's delay; it doubles up to maxBackoffMs (defaults 250 ms, 30 s). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** One send's time limit (default 10 s). */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** What the OTLP/HTTP spec calls retryable; any other refusal is final. */
const RETRYABLE = new Set([429, 502, 503, 504]);

/** `Retry-After` in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Parses `k1=v1,k2=v2` (OTEL_EXPORTER_OTLP_HEADERS' format, values URL-encoded). */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[decodeURIComponent(pair.slice(0, at).trim()).toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

export class OtlpForwarder {
  private readonly queue: ForwardedExport[] = [];
  private pumping = false;
  private stopped = false;
  private wake?: () => void;
  private readonly counts = { queuedBytes: 0, sentExports: 0, sentSpans: 0, droppedExports: 0, droppedSpans: 0 };
  private lastError?: string;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: OtlpForwarderOptions) {}

  status(): ForwarderStatus {
    return { url: this.options.url, queued: this.queue.length, ...this.counts, ...(this.lastError ? { lastError: this.lastError } : {}) };
  }

  /** Queues one accepted export; returns at once (the receiver's answer never waits for upstream). */
  forward(item: ForwardedExport): void {
    if (this.stopped) return;
    const limit = this.options.maxBufferBytes ?? 64 << 20;
    this.queue.push(item);
    this.counts.queuedBytes += item.body.byteLength;
    // Over the bound: drop the oldest waiting exports, never the one in flight (index 0 while pumping).
    while (this.counts.queuedBytes > limit && this.queue.length > (this.pumping ? 1 : 0)) {
      const dropped = this.queue.splice(this.pumping ? 1 : 0, 1)[0];
      this.counts.queuedBytes -= dropped.body.byteLength;
      this.counts.droppedExports += 1;
      this.counts.droppedSpans += dropped.spans;
      this.report(`the forwarding buffer is full (${limit} bytes): dropped an export of ${dropped.spans} span(s)`);
    }
    void this.pump();
  }

  /** Resolves once everything queued has been sent or dropped (tests, shutdown). */
  drained(): Promise<void> {
    if (this.queue.length === 0 && !this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private report(message: string): void {
    (this.options.log ?? ((text) => console.warn(`loopscope: forwarding to ${this.options.url}: ${text}`)))(message);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    let backoff = this.options.minBackoffMs ?? 250;
    try {
      while (this.queue.length > 0 && !this.stopped) {
        const item = this.queue[0];
        const outcome = await this.send(item);
        if (outcome.kind === 'retry') {
          if (this.lastError !== outcome.why) this.report(`${outcome.why}; retrying`);
          this.lastError = outcome.why;
          await this.sleep(outcome.afterMs ?? backoff);
          backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
          continue;
        }
        this.queue.shift();
        this.counts.queuedBytes -= item.body.byteLength;
        backoff = this.options.minBackoffMs ?? 250;
        if (outcome.kind === 'sent') {
          if (this.lastError) this.report('upstream answers again');
          this.lastError = undefined;
          this.counts.sentExports += 1;
          this.counts.sentSpans += item.spans;
        } else {
          this.lastError = outcome.why;
          this.counts.droppedExports += 1;
          this.counts.droppedSpans += item.spans;
          this.report(`${outcome.why}; the export (${item.spans} span(s)) is dropped`);
        }
      }
    } finally {
      this.pumping = false;
      if (this.queue.length === 0 || this.stopped) {
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async send(item: ForwardedExport): Promise<{ kind: 'sent' } | { kind: 'refused'; why: string } | { kind: 'retry'; why: string; afterMs?: number }> {
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { ...this.options.headers, 'content-type': item.contentType, ...(item.contentEncoding ? { 'content-encoding': item.contentEncoding } : {}) },
        // The bytes as received (an ArrayBuffer-backed view: what fetch takes).
        body: item.body as Uint8Array<ArrayBuffer>,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return { kind: 'sent' };
      const why = `upstream answered ${response.status}`;
      if (RETRYABLE.has(response.status)) return { kind: 'retry', why, afterMs: retryAfterMs(response.headers.get('retry-after')) };
      return { kind: 'refused', why };
    } catch (error) {
      return { kind: 'retry', why: `upstream cannot be reached (${errorMessage(error)})` };
    }
  }
}
