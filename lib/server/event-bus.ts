import type { SpanStartEvent } from '../runtime/runner-protocol';
import type { Span } from '../trace/span';
import type { RunnerStatus } from './runner-supervisor';
import type { RunSession } from './run-registry';

/** Everything the page can watch live, over one event stream. */
export type LiveEvent =
  | { type: 'spans'; traceId: string; spans: Span[] }
  | { type: 'span-start'; span: SpanStartEvent }
  | { type: 'run'; run: RunSession }
  | { type: 'traces-changed'; traceIds: string[] }
  | { type: 'runner'; status: RunnerStatus };

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
