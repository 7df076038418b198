import { describe, expect, it } from 'vitest';
import { isGenkitScenario } from '../read/genkit-scenario';
import { classifySpan } from '../../classify-span';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { resumeContextFrom } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { resumeTargetOf } from '../../answer-target';
import { retargetGenkitAnswer } from '../../retarget-scripted-answer';
import { startCaptureHarness } from '../../../server/testing/capture-harness';
import { fakeEndpointModel, useFakeEndpointHarness } from '../../../server/testing/fake-endpoint-harness';
import type { Span } from '../../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../../spans/trace-link-keys';
import { BROKEN_JSON_MODEL } from '../../../runner/testing/fake-openai-server';

/**
 * genkit scenarios on a real model: the shipped scenarios' prompts and tools, played by a fake
 * OpenAI-compatible server on loopback through `@genkit-ai/compat-oai` (the `openai` client:
 * real HTTP, real JSON, the plugin's own tool-call parsing), in real runner processes whose
 * spans are sent over IPC and stored — then counted.
 *
 * Measured with genkit 1.42.0 + compat-oai 1.42.0: the plugin calls the non-streaming API
 * (`stream` absent) when generate has no streaming callback; it parses a tool call's arguments
 * with `JSON.parse`, so malformed JSON throws a SyntaxError out of the model action: the model
 * span and the generate fail, no tool runs.
 */
const API_KEY = 'sk-loopscope-test-key-1234';
const endpoint = useFakeEndpointHarness(API_KEY);
const { spansOf } = endpoint;

let runCounter = 0;
const provider = fakeEndpointModel;

const labels = (spans: Span[]) => spans.map((span) => `${classifySpan(span).role} ${classifySpan(span).label} ${classifySpan(span).outcome}`).sort();
const expectNoKey = (spans: Span[]) => expect(JSON.stringify(spans)).not.toContain(API_KEY);

describe('genkit scenarios on an OpenAI-compatible endpoint (fake server, compat-oai)', () => {
  it('plain-tool-round: the tool calls are parsed, both tools run, their outputs reach the model (6 spans)', async () => {
    const requestsBefore = endpoint.fake.chatRequests.length;
    const result = await endpoint.harness.supervisor.generate({ runId: `provider-${++runCounter}`, scenario: 'plain-tool-round', provider: provider() });
    expect(result.failure).toBeUndefined();
    expect(result.outcome?.finishReason).toBe('stop');
    const requests = endpoint.fake.chatRequests.slice(requestsBefore);
    expect(requests).toHaveLength(2);
    expect(requests[0].model).toBe('fake-model');
    expect(requests[0].stream).toBeUndefined();
    expect(requests[0].authorization).toBe(`Bearer ${API_KEY}`);
    expect(requests[0].tools?.map((tool) => tool.function.name).sort()).toEqual(['convertTemperature', 'getWeather']);
    expect(requests[0].messages[0]).toMatchObject({ role: 'user', content: "What's the weather in Lisbon, in Fahrenheit?" });
    // tools/weather.ts ran: its output is in the tool messages the second request sent.
    expect(requests[1].messages.filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(result.outcome?.text).toMatch(/^The tools said: /);

    const spans = await spansOf(result);
    // Two turns (generate + model each) and two tool runs, as with the scripted model; the model is the endpoint's.
    expect(labels(spans)).toEqual([
      'generate generate ok',
      'generate generate ok',
      'model openai-compatible/fake-model ok',
      'model openai-compatible/fake-model ok',
      'tool convertTemperature ok',
      'tool getWeather ok',
    ]);
    expect(buildRunGraph(spans).summary).toMatchObject({ modelCalls: 2, toolCalls: 2, interrupts: 0, errors: 0, finishReason: 'stop' });
    expectNoKey(spans);
  });

  it('respond-to-question: the real model calls the interrupt tool, the run pauses; the scripted answer (by tool name) resumes it on the same model', async () => {
    const first = await endpoint.harness.supervisor.generate({ runId: `provider-${++runCounter}`, scenario: 'respond-to-question', provider: provider() });
    expect(first.outcome?.finishReason).toBe('interrupted');
    const [interrupt] = first.outcome!.interrupts as { toolRequest: { name: string; ref: string } }[];
    expect(interrupt.toolRequest.name).toBe('askUser');
    // The model's own call id, not the script's `seat-1`.
    expect(interrupt.toolRequest.ref).toMatch(/^call_\d+$/);
    const firstSpans = await spansOf(first);
    expect(labels(firstSpans)).toEqual(['generate generate interrupted', 'model openai-compatible/fake-model ok', 'tool askUser interrupted']);

    const scripted = endpoint.harness.supervisor.status.scenarios.filter(isGenkitScenario).find((scenario) => scenario.name === 'respond-to-question')!;
    const answer = retargetGenkitAnswer({ answer: scripted.resumes![0], interrupts: first.outcome!.interrupts });
    expect(answer.respond?.[0].ref).toBe(interrupt.toolRequest.ref);
    const requestsBefore = endpoint.fake.chatRequests.length;
    const resumed = await endpoint.harness.supervisor.generate({ runId: `provider-${runCounter}`, scenario: 'respond-to-question', provider: provider(), messages: first.outcome!.messages, resume: answer, answers: first.rootSpan });
    expect(resumed.failure).toBeUndefined();
    expect(resumed.outcome?.finishReason).toBe('stop');
    const [request] = endpoint.fake.chatRequests.slice(requestsBefore);
    expect(request.messages.find((message) => message.role === 'tool')).toMatchObject({ tool_call_id: interrupt.toolRequest.ref });
    expect(resumed.outcome?.text).toContain('Window');
    const spans = await spansOf(resumed);
    expect(labels(spans)).toEqual(['generate generate ok', 'generate generate ok', 'model openai-compatible/fake-model ok']);
    // The resume's root span links to the interrupted generate, as for scripted runs.
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    expect(root.links.map((link) => [link.spanId, link.attributes[ANSWERS_LINK_ATTRIBUTE]])).toEqual([[first.rootSpan!.spanId, ANSWERS_LINK_VALUE]]);
    expect(buildRunGraph([...firstSpans, ...spans]).summary).toMatchObject({ generates: 2, interrupts: 1, responds: 1, errors: 0, finishReason: 'stop' });
  });

  it('the workbench answer of a recorded run on the endpoint runs on the same model', async () => {
    const first = await endpoint.harness.supervisor.generate({ runId: `provider-${++runCounter}`, scenario: 'respond-to-question', provider: provider() });
    const spans = await spansOf(first);
    const context = resumeContextFrom(spans);
    expect(context.model).toBe('openai-compatible/fake-model');
    const [request] = context.requests;
    const answer = { source: { traceIds: first.traceIds }, respond: [{ name: 'askUser', ref: request.ref, output: { answer: 'Aisle' } }], restart: [] };
    const facts = { ...endpoint.harness.supervisor.status, providers: { openaiCompatible: true, gemini: false } };
    const target = resumeTargetOf({ facts, context, request: answer });
    expect(target.blockers).toEqual([]);
    // Without an endpoint the same answer is refused before anything runs, in words.
    expect(resumeTargetOf({ facts: { ...facts, providers: { openaiCompatible: false, gemini: false } }, context, request: answer }).blockers[0]?.message).toMatch(/ran on fake-model \(OpenAI-compatible\), which no runner can call now/);
    const validation = validateResume({ context, respond: answer.respond, restart: [], localTools: target.localTools });
    expect(validation.errors).toEqual([]);
    const resumed = await endpoint.harness.supervisor.generate({ runId: `provider-${++runCounter}`, ...target.command(validation) });
    expect(resumed.failure).toBeUndefined();
    expect(resumed.outcome?.text).toContain('Aisle');
    expect(labels(await spansOf(resumed))).toContain('model openai-compatible/fake-model ok');
  });

  it('malformed tool-call arguments JSON: the plugin throws, shown as the model’s error; no tool runs (3 spans)', async () => {
    const result = await endpoint.harness.supervisor.generate({ runId: `provider-${++runCounter}`, scenario: 'plain-tool-round', provider: provider(BROKEN_JSON_MODEL) });
    expect(result.outcome).toBeUndefined();
    expect(result.failure).toMatchObject({ name: 'SyntaxError' });
    expect(result.failure?.message).toMatch(/JSON/);
    const spans = await spansOf(result);
    expect(labels(spans)).toEqual(['generate generate error', `model openai-compatible/${BROKEN_JSON_MODEL} error`]);
    const model = spans.find((span) => classifySpan(span).role === 'model')!;
    expect(model.status?.message).toMatch(/JSON/);
    expect(buildRunGraph(spans).summary).toMatchObject({ modelCalls: 1, toolCalls: 0, errors: 1, finishReason: 'error' });
  });

  it('a refused key is the endpoint’s 401, as the run’s failure', async () => {
    const other = await startCaptureHarness({ runnerEnvironment: () => ({ LOOPSCOPE_OPENAI_BASE_URL: endpoint.fake.baseUrl, LOOPSCOPE_OPENAI_API_KEY: 'wrong-key' }), maxRunners: 1 });
    try {
      expect(await other.supervisor.whenReady()).toBe(true);
      const result = await other.supervisor.generate({ runId: 'provider-401', scenario: 'plain-tool-round', provider: provider() });
      expect(result.failure).toMatchObject({ status: 'UNAUTHENTICATED' });
      expect(result.failure?.message).toContain('401 Incorrect API key provided.');
      expect(result.failure?.message).not.toContain('wrong-key');
    } finally {
      await other.close();
    }
  });
});
