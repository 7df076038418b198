/**
 * `loopscope/ai-sdk` in an app that has no credential (not started by `loopscope start`, no
 * LOOPSCOPE_TOKEN): its spans still reach Loopscope's OTLP door — counted — but its calls are not
 * runs, nothing pauses, the app is told once why, and `answerInLoopscope` says it cannot answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AI_SDK_APP_ENVIRONMENT } from '../../../contract/attach-ai-sdk';
import { startAiSdkAppHarness, type AiSdkAppHarness } from '../../../server/attach/testing/ai-sdk-app-harness';
import { model, tripTools } from '../../../../examples/apps/ai-sdk/trip-agent';
import { answerInLoopscope, loopscopeTelemetry, loopscopeTools, type LoopscopeTelemetry } from './index';

describe('loopscope/ai-sdk without a credential', () => {
  let harness: AiSdkAppHarness;
  let telemetry: LoopscopeTelemetry;
  let markers: string;

  beforeAll(async () => {
    markers = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ai-sdk-nocred-'));
    harness = await startAiSdkAppHarness();
    delete process.env[AI_SDK_APP_ENVIRONMENT.secret];
    delete process.env[AI_SDK_APP_ENVIRONMENT.token];
    telemetry = loopscopeTelemetry({ url: harness.url, name: 'uncredentialed' });
  });

  afterAll(async () => {
    await telemetry?.shutdown();
    await harness?.close();
    await rm(markers, { recursive: true, force: true });
  });

  it('sends the spans, opens no run, says so once, and cannot answer an approval', async () => {
    expect(telemetry.connected).toBe(false);
    const said = vi.spyOn(process.stderr, 'write');
    const tools = loopscopeTools(tripTools(markers));
    const call = () => generateText({ model, tools, prompt: 'Plan a trip to Kyoto for 4 nights', stopWhen: stepCountIs(4) });
    const result = await call();
    await call();
    expect(result.finishReason).toBe('tool-calls');
    await telemetry.flush();
    const traces = new Set(harness.received.map((span) => span.traceId));
    expect(traces.size).toBe(2);
    expect(harness.received).toHaveLength(12);
    expect(harness.apps.list()).toEqual([]);
    expect(harness.requests.filter((request) => request.path.startsWith('/attach/'))).toEqual([]);
    const lines = said.mock.calls.map(([text]) => String(text)).filter((text) => text.startsWith('loopscope/ai-sdk:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('not stepped: no LOOPSCOPE_APP_SECRET');
    said.mockRestore();
    await expect(answerInLoopscope(result)).rejects.toThrow('not a Loopscope run');
  });
});
