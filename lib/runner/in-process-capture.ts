/**
 * In-process span capture for a one-shot genkit run outside the runner (the CLI): a real
 * OpenTelemetry SDK provider with an in-memory exporter.
 *
 * Call `startInProcessCapture()` BEFORE genkit is imported: genkit's tracer binds to the global
 * provider it finds on first use, and `enableTelemetry` after the first action does nothing
 * (docs/interrupt-model.md §5). Its callers import this module lazily (`import()`, the CLI's answer
 * paths only), so that modules which only read traces (the `graph` command) never pay for the SDK;
 * its own imports are static: bundled into the installed package (scripts/build-package.ts), an
 * `import()` of a CommonJS package such as the OpenTelemetry SDK yields only `default` (esbuild's
 * code splitting), and named exports read from it were undefined.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { LoopscopeError } from '../errors';
import { decodeOtlpJson } from '../spans/otlp-json';
import { parseJsonLimited } from '../spans/parse-json-limited';
import type { Span } from '../spans/span';
import { AnswerLinkProcessor } from './answer-link';

export interface CapturedSpans {
  spans: Span[];
  /** Spans that started since the previous `take()`; equal to `spans.length` when none was lost. */
  started: number;
}

export interface InProcessCapture {
  /** Flushes, then hands over (and forgets) every span that ended since the previous call. */
  take(): Promise<CapturedSpans>;
  shutdown(): Promise<void>;
}

/**
 * Registers a global tracer provider (in-memory exporter) and the async-hooks context manager.
 * Without the context manager `startActiveSpan` cannot carry the active span across awaits and
 * every genkit span becomes the root of its own trace.
 */
export async function startInProcessCapture(options: { serviceName: string }): Promise<InProcessCapture> {
  // Genkit would otherwise start its own SDK (an older OTel generation) on first use.
  disableGenkitOTelInitialization();

  let started = 0;
  const counter: SpanProcessor = {
    onStart: () => {
      started += 1;
    },
    onEnd: () => undefined,
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    // In memory, one export per span costs nothing and cannot be dropped: the drops seen with
    // a SimpleSpanProcessor come from too many OTLP/HTTP requests in flight (§5), not from here.
    spanProcessors: [new AnswerLinkProcessor(), counter, new SimpleSpanProcessor(exporter)],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

  return {
    async take() {
      await provider.forceFlush();
      const finished = exporter.getFinishedSpans();
      const startedSinceLast = started;
      exporter.reset();
      started = 0;
      if (finished.length === 0) return { spans: [], started: startedSinceLast };
      const bytes = JsonTraceSerializer.serializeRequest([...finished]);
      if (!bytes) throw new LoopscopeError('INTERNAL', `The OTLP JSON serializer returned nothing for ${finished.length} captured span(s).`);
      return { spans: decodeOtlpJson(parseJsonLimited(bytes, { what: 'The captured spans' })), started: startedSinceLast };
    },
    shutdown: () => provider.shutdown(),
  };
}
