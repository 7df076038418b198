/**
 * One subscriber's server-sent event stream, with backpressure: each bus event is encoded once
 * for every subscriber (the bus hands out its frame), and a subscriber that does not read gets a
 * bounded queue. When its queue passes the bound it is told it missed events (`event: missed`,
 * queued after what it already has) and its stream is closed; EventSource reconnects by itself
 * and the page re-syncs from stored state on the new stream's `ready`, as after any drop. A page
 * that does not read even that within 10 s is cut and its queue freed. A slow page never grows
 * the server's memory past the bound.
 */
import { encodeFrame, type EventBus, type LiveEvent } from './event-bus';

/** A subscriber may have this many bytes queued and unread (default 8 MiB: a burst of big span batches fits). */
export const DEFAULT_MAX_QUEUED_BYTES = 8 << 20;

export interface EventStreamOptions {
  bus: EventBus;
  /** Whether this subscriber wants the event (its `?runId=` / `?traceId=` filter). */
  accepts: (event: LiveEvent) => boolean;
  /** Sends the state the page draws from (a watched run's snapshot) before `ready`, as it has it: bus events meanwhile go out between. */
  snapshot?: (send: (event: LiveEvent) => void) => Promise<void>;
  maxQueuedBytes?: number;
  keepAliveMs?: number;
  /** A dropped stream whose page still has not read its queue by then is cut, the queue freed (default 10 s). */
  drainTimeoutMs?: number;
  /** Called once when the stream ends (the page left, or it was dropped for falling behind). */
  onClose?: () => void;
}

const encoder = new TextEncoder();

/**
 * Where one subscriber's frames go: a web ReadableStream (Next's route, `openEventStream`) or a
 * Node response (the HTTP server's own answer, events-fast-path.ts).
 */
export interface EventSink {
  /** Bytes written and not yet taken by the reader (what this subscriber holds of the server's memory). */
  queuedBytes(): number;
  /** Queues bytes; false when the reader is gone. */
  write(bytes: Uint8Array): boolean;
  /** Ends the stream after what is queued. */
  end(): void;
  /** Cuts the stream now, dropping what is queued. */
  abort(error: Error): void;
}

/**
 * Subscribes one sink to the bus with the stream's rules (see the module's comment): the
 * snapshot, then `ready`, then bus events as they come, keep-alives, and the bound.
 * @returns the function that ends the stream (idempotent; also called when it is dropped).
 */
export function streamEvents(options: EventStreamOptions, sink: EventSink): () => void {
  const limit = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  let unsubscribe = () => {};
  let keepAlive: NodeJS.Timeout | undefined;
  let closed = false;
  const end = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(keepAlive);
    options.onClose?.();
    sink.end();
  };
  const write = (bytes: Uint8Array): void => {
    if (closed) return;
    // One event bigger than the bound still goes to a stream that has caught up (else that page could never get it).
    const queued = sink.queuedBytes();
    if (queued > 0 && queued + bytes.byteLength > limit) {
      sink.write(encoder.encode(`event: missed\ndata: ${JSON.stringify({ missed: 1, limitBytes: limit })}\nretry: 500\n\n`));
      end();
      // A page that never reads keeps even the bounded queue: cut it after a while (a no-op once drained).
      setTimeout(() => sink.abort(new Error('The page did not read its events.')), options.drainTimeoutMs ?? 10_000).unref();
      return;
    }
    if (!sink.write(bytes)) end();
  };
  // Subscribe before the snapshot: an event in between may come twice, never not at all.
  unsubscribe = options.bus.subscribe((event, frame) => {
    if (options.accepts(event)) write(frame());
  });
  void (async () => {
    await options.snapshot?.((event) => write(encodeFrame(event)));
    // After the snapshot: the page fetches stored spans once it sees this.
    write(encoder.encode(`event: ready\ndata: {}\n\n`));
    if (closed) return;
    keepAlive = setInterval(() => write(encoder.encode(': keep-alive\n\n')), options.keepAliveMs ?? 15_000);
    keepAlive.unref();
  })().catch((error: unknown) => {
    console.error('loopscope: an event stream could not send its snapshot', error);
    end();
  });
  return end;
}

/** One subscriber's stream as a web ReadableStream (a Next route's answer). */
export function openEventStream(options: EventStreamOptions): { stream: ReadableStream<Uint8Array>; close: () => void } {
  const limit = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  let close = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        close = streamEvents(options, {
          // desiredSize: the bound minus what is queued and unread.
          queuedBytes: () => limit - (controller.desiredSize ?? 0),
          write: (bytes) => {
            try {
              controller.enqueue(bytes);
              return true;
            } catch {
              return false; // the reader is gone
            }
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // already closed
            }
          },
          abort: (error) => {
            try {
              controller.error(error);
            } catch {
              // drained and closed already
            }
          },
        });
      },
      cancel() {
        close();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limit }),
  );
  return { stream, close: () => close() };
}
