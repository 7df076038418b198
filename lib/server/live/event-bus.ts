import type { LiveEvent as WireLiveEvent } from '../../contract/live-events';
import type { RunGraph } from '../../graph/run-graph';

/** Everything the page can watch live, over one event stream (the wire type, with Graph JSON as lib/graph builds it). */
export type LiveEvent = WireLiveEvent<RunGraph>;

/** A listener gets the event and its server-sent event frame, encoded once per event however many streams send it. */
type Listener = (event: LiveEvent, frame: () => Uint8Array) => void;

/** In-process publish/subscribe. A listener that throws is dropped, never the publisher. */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  /** Events encoded as frames so far (at most one per event published). */
  encodedFrames = 0;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LiveEvent): void {
    let bytes: Uint8Array | undefined;
    const frame = () => {
      if (!bytes) {
        bytes = encodeFrame(event);
        this.encodedFrames += 1;
      }
      return bytes;
    };
    for (const listener of this.listeners) {
      try {
        listener(event, frame);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

const encoder = new TextEncoder();

/** One event as a server-sent event frame. */
export function encodeFrame(event: LiveEvent): Uint8Array {
  return encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}
