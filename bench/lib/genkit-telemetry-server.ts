/**
 * Genkit's own telemetry server (`@genkit-ai/telemetry-server`, the one the Genkit Dev UI
 * starts), as a child process of a benchmark: its own event loop, like the Loopscope server it
 * is measured beside. It stores traces in `LocalFileTraceStore` files under
 * BENCH_GENKIT_DIR and takes OTLP/HTTP JSON at `/api/otlp` (also `/api/otlp/v1/traces`).
 * Prints `genkit telemetry server ready` once it listens.
 *
 * Run: `BENCH_GENKIT_PORT=… BENCH_GENKIT_DIR=… node --import tsx bench/lib/genkit-telemetry-server.ts`.
 */
import { createRequire } from 'node:module';

// Its ESM build is plain `.js` in a CommonJS package, so Node loads it as CommonJS and sees no
// named exports (re-exports through getters): require the CommonJS build it also ships.
const { LocalFileLogStore, LocalFileTraceStore, startTelemetryServer } = createRequire(import.meta.url)('@genkit-ai/telemetry-server') as typeof import('@genkit-ai/telemetry-server');

const port = Number(process.env.BENCH_GENKIT_PORT);
const storeRoot = process.env.BENCH_GENKIT_DIR;
if (!Number.isInteger(port) || !storeRoot) throw new Error('bench: set BENCH_GENKIT_PORT and BENCH_GENKIT_DIR');

// startTelemetryServer's own SIGTERM handler closes the listener but leaves the process
// running; the benchmark wants it gone.
process.on('SIGTERM', () => process.exit(0));
// Its logger writes every stored trace at debug level only; the default level keeps stdout quiet.
await startTelemetryServer({
  port,
  traceStore: new LocalFileTraceStore({ storeRoot, indexRoot: storeRoot }),
  logStore: new LocalFileLogStore({ storeRoot, indexRoot: storeRoot }),
});
// The listener is bound after startTelemetryServer returns (api.listen is not awaited): ask until it answers.
for (;;) {
  const answer = await fetch(`http://127.0.0.1:${port}/api/__health`).catch(() => undefined);
  if (answer?.ok) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
console.log('genkit telemetry server ready');
