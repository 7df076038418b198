import type { LiveEvent as WireLiveEvent } from '../contract/live-events';
import type { RunGraph } from '../graph/run-graph';

/** Everything the page can watch live, over one event stream (the wire type, with Graph JSON as lib/graph builds it). */
export type LiveEvent = WireLiveEvent<RunGraph>;

type Listener = (event: LiveEvent) => void;

/** In-process publish/subscribe. A listener that throws is dropped, never the publisher. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
