import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppContext } from '../app-context-ports';
import { GoRunnerService } from '../../runtimes/genkit-go/run/go-runner-service';
import { goStepEvents } from '../runners/go-step-events';
import { ProviderConfig } from '../services/provider-config';
import { RunRegistry, type RunSession } from '../services/run-registry';
import { startCaptureHarness, type CaptureHarness } from './capture-harness';

/**
 * For service tests against the real runner: starts a capture harness (runner + OTLP
 * receiver + store) before the file's tests and closes it after. Read `harness` and
 * `context` inside tests (they are set in beforeAll).
 */
export function useRunnerContext(): { readonly harness: CaptureHarness; readonly context: AppContext } {
  const holder = {} as { harness: CaptureHarness; context: AppContext };
  beforeAll(async () => {
    holder.harness = await startCaptureHarness();
    expect(await holder.harness.supervisor.whenReady()).toBe(true);
    const runs = new RunRegistry(() => undefined);
    const goRunner = new GoRunnerService({ projectDir: process.cwd(), dataDir: path.join(process.cwd(), '.loopscope'), otlpEndpoint: holder.harness.endpoint, token: holder.harness.token, ...goStepEvents({ runs }) });
    // No real-model endpoint: the server's setting as after a start without LOOPSCOPE_OPENAI_BASE_URL.
    const providers = new ProviderConfig({ environment: {}, onEndpointChanged: () => undefined });
    holder.context = { store: holder.harness.store, runs, supervisor: holder.harness.supervisor, goRunner, providers } as unknown as AppContext;
  });
  afterAll(async () => {
    await holder.context?.goRunner.stop();
    await holder.harness?.close();
  });
  return holder;
}

/**
 * A server context on real runners whose events reach the run registry as in the server
 * (app-context.ts): span starts, traces, pauses, which runner a run has. `harnessOptions` go to
 * the capture harness (a tools folder of its own, the runner count, …); `projectDir` is the Go
 * runner's (go/ and tools/go/). Close it when done.
 */
export async function startRunnerContext(options: { harnessOptions?: Parameters<typeof startCaptureHarness>[0]; projectDir?: string } = {}): Promise<{ harness: CaptureHarness; context: AppContext; close(): Promise<void> }> {
  const runs = new RunRegistry(() => undefined);
  const harness = await startCaptureHarness({
    ...options.harnessOptions,
    onSpanStart: (span) => runs.recordSpanStart(span),
    onRunTrace: (runId, traceId) => runs.addTrace(runId, traceId),
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onRunRunner: (runId, info) => runs.setRunner(runId, info),
  });
  const projectDir = options.projectDir ?? process.cwd();
  const goRunner = new GoRunnerService({ projectDir, dataDir: path.join(projectDir, '.loopscope'), otlpEndpoint: harness.endpoint, token: harness.token, ...goStepEvents({ runs }) });
  const providers = new ProviderConfig({ environment: {}, onEndpointChanged: () => undefined });
  // No attached app: no run's pauses live there.
  const attachedSteps = { holdsRun: () => false, command: async () => ({ ok: false, message: 'No attached app.' }) };
  const context = { store: harness.store, runs, supervisor: harness.supervisor, goRunner, providers, attachedSteps } as unknown as AppContext;
  return {
    harness,
    context,
    async close() {
      await goRunner.stop();
      await harness.close();
    },
  };
}

/** Waits until a run is no longer running (its runner command answered). */
export async function runEnded({ context, runId, timeoutMs = 20_000 }: { context: AppContext; runId: string; timeoutMs?: number }): Promise<RunSession> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = context.runs.get(runId)!;
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
