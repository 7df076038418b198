import { afterAll, beforeAll } from 'vitest';
import { BROKEN_JSON_MODEL, scenarioReplies, startFakeOpenAiServer, type FakeOpenAiServer } from '../../runner/testing/fake-openai-server';
import type { Span } from '../../spans/span';
import type { GenerateResult } from '../../runner/run-requests';
import { startCaptureHarness, type CaptureHarness } from './capture-harness';

/**
 * Real runners whose real model is a fake OpenAI-compatible server on loopback (the shipped
 * scenarios' replies; a listed model with malformed tool-call JSON), keyed by `apiKey`:
 * the setup of the provider capture tests of every runtime.
 */
export async function startFakeEndpointHarness(apiKey: string): Promise<{ fake: FakeOpenAiServer; harness: CaptureHarness; close(): Promise<void> }> {
  const fake = await startFakeOpenAiServer({ models: ['fake-model', BROKEN_JSON_MODEL], reply: scenarioReplies, apiKey });
  const harness = await startCaptureHarness({ runnerEnvironment: () => ({ LOOPSCOPE_OPENAI_BASE_URL: fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: apiKey }) });
  if (!(await harness.supervisor.whenReady())) throw new Error('the runner did not become ready');
  return {
    fake,
    harness,
    async close() {
      await harness.close();
      await fake.close();
    },
  };
}

/** A run on the fake endpoint's model. */
export const fakeEndpointModel = (model = 'fake-model') => ({ kind: 'openai-compatible' as const, model });

/** The stored spans of a run of one trace. */
export async function storedSpansOfRun(harness: CaptureHarness, result: GenerateResult): Promise<Span[]> {
  if (result.traceIds.length !== 1) throw new Error(`expected one trace, got ${result.traceIds.length}`);
  return (await harness.store.get(result.traceIds[0])) ?? [];
}

/**
 * `startFakeEndpointHarness` for one test file: started before its tests, closed after them.
 * Read `fake` and `harness` inside tests (they exist once the file's tests run).
 */
export function useFakeEndpointHarness(apiKey: string): { readonly fake: FakeOpenAiServer; readonly harness: CaptureHarness; spansOf(result: GenerateResult): Promise<Span[]> } {
  let started: Awaited<ReturnType<typeof startFakeEndpointHarness>> | undefined;
  beforeAll(async () => {
    started = await startFakeEndpointHarness(apiKey);
  });
  afterAll(() => started?.close());
  const get = () => {
    if (!started) throw new Error('the fake endpoint harness is not started yet');
    return started;
  };
  return {
    get fake() {
      return get().fake;
    },
    get harness() {
      return get().harness;
    },
    spansOf: (result) => storedSpansOfRun(get().harness, result),
  };
}
