/**
 * What the runner reports of a span the moment it starts, by the runtime that starts it: the
 * start notice is all the server has of a span whose end never comes (a tool that hangs, a runner
 * that dies), and a span that may run code from tools/ must have its notice out before that code
 * runs (lib/runner/runner-span-outbox.ts). The runner knows no runtime: each engine says what its
 * spans carry at their start (`RunnerEngine.spanStarts`, lib/runner/runner-engine.ts), and the
 * span reporter asks all of them at once (`engineSpanStarts`).
 */

/** A runtime's part of a span start notice. Its members run for every span the runner starts: they allocate nothing. */
export interface SpanStarts {
  /**
   * The attributes a start notice copies from the span when it has them at its start: enough for
   * the runtime's dialect to claim the open span, say which tool it runs and close it in the
   * runtime's shape (lib/runtimes/open-spans.ts).
   */
  readonly attributes: readonly string[];
  /**
   * True when the span may run code from tools/ (a tool, or a model that is not Loopscope's own:
   * a tools/ module can define one), so its notice leaves at once. Loopscope's own models play
   * data: their notices wait for the next batch, which halves a fast loop's spool writes
   * (bench/capture-overhead.bench.ts). `attributes` are the notice's, after `atStart`.
   */
  runsCode(attributes: Readonly<Record<string, string>>, spanName: string): boolean;
  /** Adds to a notice what the runtime knows at the span's start but records only at its end (genkit's tool input). */
  atStart?(attributes: Record<string, string>, spanName: string): void;
}

/**
 * The span starts of a runner's engines as one: every attribute any of them copies (each once,
 * in the engines' order), a span runs code when any of them says so, and every `atStart` adds
 * its part.
 */
export function engineSpanStarts(engines: readonly { readonly spanStarts: SpanStarts }[]): SpanStarts {
  const all = engines.map((engine) => engine.spanStarts);
  if (all.length === 1) return all[0];
  const adding = all.filter((starts) => starts.atStart !== undefined);
  return {
    attributes: [...new Set(all.flatMap((starts) => starts.attributes))],
    runsCode(attributes, spanName) {
      // A loop, not `some`: a callback would be one closure per span.
      for (let index = 0; index < all.length; index++) if (all[index].runsCode(attributes, spanName)) return true;
      return false;
    },
    atStart:
      adding.length === 0
        ? undefined
        : (attributes, spanName) => {
            for (let index = 0; index < adding.length; index++) adding[index].atStart!(attributes, spanName);
          },
  };
}
