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

export function openEventStream(options: EventStreamOptions): { stream: ReadableStream<Uint8Array>; close: () => void } {
  const limit = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  let unsubscribe = () => {};
  let keepAlive: NodeJS.Timeout | undefined;
  let closed = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const end = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(keepAlive);
    options.onClose?.();
    try {
      controllerRef?.close();
    } catch {
      // already closed
    }
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        controllerRef = controller;
        let missed = 0;
        const write = (bytes: Uint8Array): void => {
          if (closed) return;
          // desiredSize: the bound minus what is queued and unread. One event bigger than the bound
          // still goes to a stream that has caught up (else that page could never get it).
          const queued = limit - (controller.desiredSize ?? 0);
          if (queued > 0 && queued + bytes.byteLength > limit) {
            missed += 1;
            const notice = encoder.encode(`event: missed\ndata: ${JSON.stringify({ missed, limitBytes: limit })}\nretry: 500\n\n`);
            try {
              controller.enqueue(notice);
            } catch {
              // the reader is gone
            }
            end();
            // A page that never reads keeps even the bounded queue: cut it after a while (a no-op once drained).
            setTimeout(() => controller.error(new Error('The page did not read its events.')), options.drainTimeoutMs ?? 10_000).unref();
            return;
          }
          try {
            controller.enqueue(bytes);
          } catch {
            end();
          }
        };
        // Subscribe before the snapshot: an event in between may come twice, never not at all.
        unsubscribe = options.bus.subscribe((event, frame) => {
          if (options.accepts(event)) write(frame());
        });
        await options.snapshot?.((event) => write(encodeFrame(event)));
        // After the snapshot: the page fetches stored spans once it sees this.
        write(encoder.encode(`event: ready\ndata: {}\n\n`));
        if (closed) return;
        keepAlive = setInterval(() => write(encoder.encode(': keep-alive\n\n')), options.keepAliveMs ?? 15_000);
        keepAlive.unref();
      },
      cancel() {
        end();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limit }),
  );
  return { stream, close: end };
}
