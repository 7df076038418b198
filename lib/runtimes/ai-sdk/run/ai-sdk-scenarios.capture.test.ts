import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { startCaptureHarness, type CaptureHarness } from '../../../server/testing/capture-harness';
import type { GenerateResult } from '../../../runner/run-requests';
import { ANSWERS_LINK_ATTRIBUTE } from '../../../spans/trace-link-keys';
import type { Span } from '../../../spans/span';

/**
 * Every AI SDK scenario, run by the real runner (real `generateText`, the scripted
 * `LanguageModelV4`, tools/ai-sdk/), its spans reported over IPC by the runner and stored
 * by the supervisor — then counted, per call (each call is its own trace).
 *
 * Span shape, measured with ai@7.0.173 + @ai-sdk/otel: `invoke_agent {model}` → `step N` →
 * `chat {model}` and `execute_tool {tool}`. A tool approved in an answer call runs before
 * `step 1`, directly under `invoke_agent`; a provider-executed tool's span sits inside `chat`.
 */
let harness: CaptureHarness;

beforeAll(async () => {
  harness = await startCaptureHarness();
  expect(await harness.supervisor.whenReady()).toBe(true);
});
afterAll(async () => harness?.close());

interface CallExpectation {
  finishReason?: string;
  /** Span names, sorted (`M` is the scripted model id). */
  spans: string[];
  /** Calls left waiting, as `kind toolName#toolCallId`. */
  waiting?: string[];
  failure?: RegExp;
}

const call = (spans: string[], more: Omit<CallExpectation, 'spans'> = {}): CallExpectation => ({ spans, ...more });
const ROUND = ['invoke_agent M', 'step 1', 'chat M'];
const TWO_STEPS = [...ROUND, 'step 2', 'chat M'];

/** What each scenario's calls produce: the first call, then one per scripted resume. */
const EXPECTED: Record<string, CallExpectation[]> = {
  'ai-sdk-plain-tool-round': [call([...TWO_STEPS, 'execute_tool getWeather', 'execute_tool convertTemperature'], { finishReason: 'stop' })],
  'ai-sdk-approval-approved': [
    call(ROUND, { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-1'] }),
    call([...ROUND, 'execute_tool transferMoney'], { finishReason: 'stop' }),
  ],
  'ai-sdk-approval-denied': [call(ROUND, { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-1'] }), call(ROUND, { finishReason: 'stop' })],
  'ai-sdk-approval-policy': [
    call([...ROUND, 'execute_tool transferMoney'], { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-large'] }),
    call([...ROUND, 'execute_tool transferMoney'], { finishReason: 'stop' }),
  ],
  'ai-sdk-signed-approval-forged': [
    call(ROUND, { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-1'] }),
    call(['invoke_agent M'], { failure: /signature verification failed.*invalid signature/ }),
  ],
  'ai-sdk-handed-back-tool': [call(ROUND, { finishReason: 'tool-calls', waiting: ['handed-back askUser#ask-1'] }), call(ROUND, { finishReason: 'stop' })],
  'ai-sdk-dynamic-tool': [call([...TWO_STEPS, 'execute_tool lookupCustomer'], { finishReason: 'stop' })],
  'ai-sdk-provider-executed-tool': [call([...ROUND, 'execute_tool webSearch'], { finishReason: 'stop' })],
  'ai-sdk-unknown-tool': [call(TWO_STEPS, { finishReason: 'stop' })],
  'ai-sdk-invalid-tool-input': [call(TWO_STEPS, { finishReason: 'stop' })],
  'ai-sdk-repair-tool-call': [call([...TWO_STEPS, 'execute_tool getWeather'], { finishReason: 'stop' })],
  'ai-sdk-tool-throws': [call([...TWO_STEPS, 'execute_tool checkInventory'], { finishReason: 'stop' })],
  'ai-sdk-step-limit': [call([...TWO_STEPS, 'execute_tool searchDocs', 'execute_tool searchDocs'], { finishReason: 'tool-calls' })],
  'ai-sdk-approvals-after-tool-rounds': [
    call([...TWO_STEPS, 'step 3', 'chat M', 'execute_tool getWeather', 'execute_tool convertTemperature'], { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-bob'] }),
    call([...ROUND, 'execute_tool transferMoney'], { finishReason: 'tool-calls', waiting: ['approval transferMoney#transfer-dave'] }),
    call([...ROUND, 'execute_tool transferMoney'], { finishReason: 'stop' }),
  ],
};

let runCounter = 0;

/** Runs a scenario's first call and each scripted resume, as the run page's "Resume with the scenario's answer" does. */
async function runScenario(scenario: AiSdkScenario): Promise<{ results: GenerateResult[]; traces: Span[][] }> {
  const runId = `ai-sdk-test-${++runCounter}`;
  const results = [await harness.supervisor.generate({ runId, scenario: scenario.name })];
  for (const answers of scenario.resumes ?? []) {
    const previous = results.at(-1)!;
    if (!previous.outcome) break;
    results.push(await harness.supervisor.generate({ runId, scenario: scenario.name, messages: previous.outcome.messages, aiSdkAnswers: answers, answers: previous.rootSpan }));
  }
  const traces: Span[][] = [];
  for (const result of results) {
    expect(result.traceIds).toHaveLength(1);
    traces.push((await harness.store.get(result.traceIds[0])) ?? []);
  }
  return { results, traces };
}

function aiSdkScenarios(): AiSdkScenario[] {
  return harness.supervisor.status.scenarios.filter((scenario): scenario is AiSdkScenario => scenario.runtime === 'ai-sdk');
}

const byName = (spans: Span[], name: string) => spans.filter((span) => span.name === name);

describe('AI SDK scenarios through the real capture path', () => {
  it('loads tools/ai-sdk/ without problems, and every AI SDK scenario has an expectation here', () => {
    expect(harness.supervisor.status.problems).toEqual([]);
    expect(aiSdkScenarios().map((scenario) => scenario.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))('%s: the spans that arrive, per call', async (name) => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === name)!;
    const { results, traces } = await runScenario(scenario);
    const model = `scripted/${name}`;
    const expected = EXPECTED[name];
    expect(results).toHaveLength(expected.length);
    for (const [index, expectation] of expected.entries()) {
      const result = results[index];
      const spans = traces[index];
      expect(spans.map((span) => span.name).sort(), `call ${index + 1}`).toEqual(expectation.spans.map((span) => span.replace(/ M$/, ` ${model}`)).sort());
      if (expectation.failure) {
        expect(result.failure?.message).toMatch(expectation.failure);
        expect(spans[0].status.code).toBe(2);
        continue;
      }
      expect(result.failure).toBeUndefined();
      expect(result.outcome?.finishReason).toBe(expectation.finishReason);
      const waiting = (result.outcome?.interrupts as { kind: string; toolName: string; toolCallId: string }[]).map((pending) => `${pending.kind} ${pending.toolName}#${pending.toolCallId}`);
      expect(waiting).toEqual(expectation.waiting ?? []);
      // One root, and every other span's parent is in the trace.
      const ids = new Set(spans.map((span) => span.spanId));
      const roots = spans.filter((span) => span.parentSpanId === undefined);
      expect(roots.map((span) => span.name)).toEqual([`invoke_agent ${model}`]);
      for (const span of spans) if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId)).toBe(true);
      expect(roots[0].attributes['gen_ai.agent.name']).toBe(name);
      // An answer call links to the call it answers (the runner adds it; the AI SDK records none).
      if (index > 0) expect(roots[0].links.map((link) => [link.spanId, link.attributes?.[ANSWERS_LINK_ATTRIBUTE] !== undefined])).toEqual([[results[index - 1].rootSpan?.spanId, true]]);
    }
  });

  it('an approved tool runs in the answer call before step 1, directly under invoke_agent', async () => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === 'ai-sdk-approval-approved')!;
    const { traces } = await runScenario(scenario);
    const [root] = traces[1].filter((span) => span.parentSpanId === undefined);
    const [tool] = byName(traces[1], 'execute_tool transferMoney');
    expect(tool.parentSpanId).toBe(root.spanId);
    expect(tool.attributes['gen_ai.tool.call.id']).toBe('transfer-1');
    expect(BigInt(tool.startTimeUnixNano)).toBeLessThanOrEqual(BigInt(byName(traces[1], 'step 1')[0].startTimeUnixNano));
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.result'] as string)).toMatchObject({ status: 'sent', to: 'Bob', amountUsd: 500 });
  });

  it('a denied call never runs: the model reads the reason', async () => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === 'ai-sdk-approval-denied')!;
    const { traces } = await runScenario(scenario);
    const input = byName(traces[1], 'chat scripted/ai-sdk-approval-denied')[0].attributes['gen_ai.input.messages'] as string;
    expect(input).toContain('{"denied":true,"reason":"Bob is not a known payee."}');
  });

  it('a provider-executed tool is recorded inside the chat span, with the provider’s result', async () => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === 'ai-sdk-provider-executed-tool')!;
    const { traces } = await runScenario(scenario);
    const [chat] = byName(traces[0], 'chat scripted/ai-sdk-provider-executed-tool');
    const [tool] = byName(traces[0], 'execute_tool webSearch');
    expect(tool.parentSpanId).toBe(chat.spanId);
    expect(tool.attributes['gen_ai.tool.type']).toBe('extension');
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.result'] as string)).toEqual({ results: [{ title: 'AI SDK 7', url: 'https://example.com/ai-sdk-7' }] });
  });

  it('a throwing tool: its span fails, the model sees the error, the call finishes', async () => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === 'ai-sdk-tool-throws')!;
    const { results, traces } = await runScenario(scenario);
    const [tool] = byName(traces[0], 'execute_tool checkInventory');
    expect(tool.status).toMatchObject({ code: 2, message: 'Inventory service returned 503 for MUG-BLUE' });
    expect(results[0].outcome?.text).toContain('inventory service is down');
  });

  it('answers after tool rounds: each answering call continues every step of the call it answers, approved results included', async () => {
    const scenario = aiSdkScenarios().find((candidate) => candidate.name === 'ai-sdk-approvals-after-tool-rounds')!;
    const { results, traces } = await runScenario(scenario);
    // The script's answer quotes three results: a history short of one reads "(no …)" there.
    expect(results.at(-1)?.outcome?.text).toBe('It is 75°F in Lisbon. Sent Bob 500 USD (TX-3500) and Dave 900 USD (TX-4900).');
    const [lastChat] = byName(traces[2], 'chat scripted/ai-sdk-approvals-after-tool-rounds');
    const sent = JSON.parse(lastChat.attributes['gen_ai.input.messages'] as string) as { role: string; parts: { type: string; id?: string }[] }[];
    const answered = sent.flatMap((message) => message.parts).filter((part) => part.type === 'tool_call_response').map((part) => part.id);
    expect(answered).toEqual(['weather-1', 'convert-1', 'transfer-bob', 'transfer-dave']);
    expect(sent.filter((message) => message.role === 'assistant')).toHaveLength(4);
  });

  it('Run mode with the step hooks installed records the same spans and answer as a plain run (stepping itself: ai-sdk-stepping.capture.test.ts)', async () => {
    const plain = await harness.supervisor.generate({ runId: `ai-sdk-test-${++runCounter}`, scenario: 'ai-sdk-plain-tool-round' });
    const hooked = await harness.supervisor.generate({ runId: `ai-sdk-test-${++runCounter}`, scenario: 'ai-sdk-plain-tool-round', mode: { kind: 'run' } });
    expect(hooked.failure).toBeUndefined();
    expect(hooked.outcome?.text).toBe(plain.outcome?.text);
    const names = async (result: GenerateResult) => ((await harness.store.get(result.traceIds[0])) ?? []).map((span) => span.name).sort();
    expect(await names(hooked)).toEqual(await names(plain));
    expect(await names(hooked)).toHaveLength(7);
  });
});
