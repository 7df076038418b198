/**
 * The OTLP receiver's two answers beyond "stored": a request some of whose spans are malformed
 * stores the others and says how many it rejected (the OTLP spec's partial success, in JSON or
 * protobuf as the request came: decodeOtlpRequestPartially finds them), and a receiver already
 * storing more than its bound sheds load
 * with 503 + `Retry-After` (retryable by every OTLP exporter) instead of growing without bound.
 */

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** ExportTraceServiceResponse with partial_success {rejected_spans, error_message}, as protobuf. */
export function partialSuccessProtobuf(rejected: number, message: string): Uint8Array<ArrayBuffer> {
  const text = Buffer.from(message, 'utf8');
  const inner = [0x08, ...varint(rejected), 0x12, ...varint(text.byteLength), ...text];
  return Uint8Array.from([0x0a, ...varint(inner.length), ...inner]);
}

/** Bytes being decoded and stored at once, bounded: past it, a request is turned away to come back later. */
export class IngestGate {
  private inFlight = 0;

  constructor(private readonly maxInFlightBytes = 256 << 20) {}

  /** Takes `bytes` for one request, or says how long the sender should wait. */
  enter(bytes: number): { ok: true; leave: () => void } | { ok: false; retryAfterSeconds: number; inFlightBytes: number } {
    if (this.inFlight > 0 && this.inFlight + bytes > this.maxInFlightBytes) return { ok: false, retryAfterSeconds: 1, inFlightBytes: this.inFlight };
    this.inFlight += bytes;
    let left = false;
    return {
      ok: true,
      leave: () => {
        if (left) return;
        left = true;
        this.inFlight -= bytes;
      },
    };
  }

  get inFlightBytes(): number {
    return this.inFlight;
  }
}
