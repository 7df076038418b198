import { describe, expect, it } from 'vitest';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { resumeContextFrom } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { resumeTargetOf } from '../../answer-target';
import { retargetAiSdkAnswer } from '../../retarget-scripted-answer';
import { fakeEndpointModel, useFakeEndpointHarness } from '../../../server/testing/fake-endpoint-harness';
import type { Span } from '../../../spans/span';
import { ANSWERS_LINK_ATTRIBUTE, ANSWERS_LINK_VALUE } from '../../../spans/trace-link-keys';
import { BROKEN_JSON_MODEL, FAILING_MODEL } from '../../../runner/testing/fake-openai-server';

/**
 * AI SDK scenarios on a real model: the shipped scenarios' prompts, tools and approvals, played by
 * a fake OpenAI-compatible server on loopback through `@ai-sdk/openai-compatible` (real HTTP, real
 * JSON, the provider's own tool-call parsing) in the real `generateText` loop of real runner
 * processes, spans sent over IPC and stored — then counted.
 *
 * Measured with ai@7.0.173 + @ai-sdk/openai-compatible@3.0.92: `generateText` calls the
 * non-streaming API (`stream` absent); malformed tool-call arguments JSON is the SDK's
 * `InvalidToolInputError` (a `JSONParseError` inside): the call is marked invalid, the tool never
 * runs, the model gets a `tool-error` and the loop goes on — unlike genkit, which fails the generate.
 */
const API_KEY = 'sk-loopscope-ai-sdk-key-5678';
const endpoint = useFakeEndpointHarness(API_KEY);
const { spansOf } = endpoint;

let runCounter = 0;
const provider = fakeEndpointModel;

const names = (spans: Span[]) => spans.map((span) => span.name).sort();

function scenario(name: string): AiSdkScenario {
  return endpoint.harness.supervisor.status.scenarios.find((candidate): candidate is AiSdkScenario => candidate.runtime === 'ai-sdk' && candidate.name === name)!;
}

describe('AI SDK scenarios on an OpenAI-compatible endpoint (fake server, @ai-sdk/openai-compatible)', () => {
  it('ai-sdk-plain-tool-round: the tool calls are parsed, both tools run, their outputs reach the model (7 spans)', async () => {
    const requestsBefore = endpoint.fake.chatRequests.length;
    const result = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, scenario: 'ai-sdk-plain-tool-round', provider: provider() });
    expect(result.failure).toBeUndefined();
    expect(result.outcome?.finishReason).toBe('stop');
    const requests = endpoint.fake.chatRequests.slice(requestsBefore);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ model: 'fake-model', authorization: `Bearer ${API_KEY}` });
    expect(requests[0].stream).toBeUndefined();
    expect(requests[0].tools?.map((tool) => tool.function.name).sort()).toEqual(['convertTemperature', 'getWeather']);
    expect(requests[1].messages.filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(result.outcome?.text).toMatch(/^The tools said: /);

    const spans = await spansOf(result);
    expect(names(spans)).toEqual(['chat fake-model', 'chat fake-model', 'execute_tool convertTemperature', 'execute_tool getWeather', 'invoke_agent fake-model', 'step 1', 'step 2']);
    const chat = spans.find((span) => span.name === 'chat fake-model')!;
    // @ai-sdk/otel maps `openai-compatible.chat` to the well-known provider name.
    expect(chat.attributes['gen_ai.provider.name']).toBe('openai');
    expect(spans.filter((span) => span.name.startsWith('execute_tool')).every((span) => span.status.code !== 2)).toBe(true);
    expect(buildRunGraph(spans).summary).toMatchObject({ modelCalls: 2, toolCalls: 2, interrupts: 0, errors: 0, finishReason: 'stop' });
    expect(JSON.stringify(spans)).not.toContain(API_KEY);
  });

  it('ai-sdk-approval-approved: the real model’s call waits for approval; the scripted approve (by tool name) runs the tool on the same model', async () => {
    const first = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, scenario: 'ai-sdk-approval-approved', provider: provider() });
    expect(first.outcome?.finishReason).toBe('tool-calls');
    const [pending] = first.outcome!.interrupts as { kind: string; toolName: string; toolCallId: string }[];
    expect(pending).toMatchObject({ kind: 'approval', toolName: 'transferMoney' });
    expect(pending.toolCallId).toMatch(/^call_\d+$/);
    const firstSpans = await spansOf(first);
    expect(names(firstSpans)).toEqual(['chat fake-model', 'invoke_agent fake-model', 'step 1']);

    const answers = retargetAiSdkAnswer({ answer: scenario('ai-sdk-approval-approved').resumes![0], interrupts: first.outcome!.interrupts });
    expect(answers.approve?.[0].toolCallId).toBe(pending.toolCallId);
    const answered = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${runCounter}`, scenario: 'ai-sdk-approval-approved', provider: provider(), messages: first.outcome!.messages, aiSdkAnswers: answers, answers: first.rootSpan });
    expect(answered.failure).toBeUndefined();
    expect(answered.outcome?.finishReason).toBe('stop');
    // tools/ai-sdk/bank.ts ran: its result is what the model was told.
    expect(answered.outcome?.text).toContain('sent');
    const spans = await spansOf(answered);
    expect(names(spans)).toEqual(['chat fake-model', 'execute_tool transferMoney', 'invoke_agent fake-model', 'step 1']);
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    expect(root.links.map((link) => [link.spanId, link.attributes[ANSWERS_LINK_ATTRIBUTE]])).toEqual([[first.rootSpan!.spanId, ANSWERS_LINK_VALUE]]);
    expect(buildRunGraph([...firstSpans, ...spans]).summary).toMatchObject({ generates: 2, interrupts: 1, restarts: 1, errors: 0, finishReason: 'stop' });
  });

  it('the workbench answer of a recorded call on the endpoint runs its scenario on the same model', async () => {
    const first = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, scenario: 'ai-sdk-approval-approved', provider: provider() });
    const context = resumeContextFrom(await spansOf(first));
    expect(context).toMatchObject({ model: 'fake-model', modelProvider: 'openai', callName: 'ai-sdk-approval-approved' });
    const [request] = context.requests;
    const answer = { source: { traceIds: first.traceIds }, respond: [], restart: [], approve: [{ name: 'transferMoney', ref: request.ref! }] };
    const target = resumeTargetOf({ facts: { ...endpoint.harness.supervisor.status, providers: { openaiCompatible: true, gemini: false } }, context, request: answer });
    expect(target.blockers).toEqual([]);
    const validation = validateResume({ context, respond: [], restart: [], approve: answer.approve, localTools: target.localTools, signsApprovals: target.signsApprovals });
    expect(validation.errors).toEqual([]);
    const command = target.command(validation);
    expect(command).toMatchObject({ scenario: 'ai-sdk-approval-approved', provider: provider() });
    const answered = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, ...command });
    expect(answered.failure).toBeUndefined();
    expect(names(await spansOf(answered))).toContain('execute_tool transferMoney');
  });

  it('malformed tool-call arguments JSON: InvalidToolInputError, the tool never runs, the model sees the error and answers', async () => {
    const requestsBefore = endpoint.fake.chatRequests.length;
    const result = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, scenario: 'ai-sdk-plain-tool-round', provider: provider(BROKEN_JSON_MODEL) });
    expect(result.failure).toBeUndefined();
    expect(result.outcome?.finishReason).toBe('stop');
    const spans = await spansOf(result);
    expect(names(spans)).toEqual([`chat ${BROKEN_JSON_MODEL}`, `chat ${BROKEN_JSON_MODEL}`, `invoke_agent ${BROKEN_JSON_MODEL}`, 'step 1', 'step 2']);
    // The second request tells the model about the error, in the SDK's words.
    const toolMessage = endpoint.fake.chatRequests.slice(requestsBefore)[1].messages.find((message) => message.role === 'tool');
    expect(String(toolMessage?.content)).toMatch(/AI_InvalidToolInputError.*JSON parsing failed/s);
    const graph = buildRunGraph(spans);
    const call = graph.generates[0].turns[0].toolCalls[0];
    expect(call).toMatchObject({ name: 'getWeather', status: 'error' });
    expect(JSON.stringify(call)).toMatch(/InvalidToolInputError/);
  });

  it('an endpoint error is the run’s failure with its status and an encoded body excerpt', async () => {
    const result = await endpoint.harness.supervisor.generate({ runId: `ai-provider-${++runCounter}`, scenario: 'ai-sdk-plain-tool-round', provider: provider(FAILING_MODEL) });
    expect(result.failure?.name).toBe('AI_APICallError');
    expect(result.failure?.message).toMatch(/\(HTTP 500: ".*<b>down<\/b>.*"\)$/);
  });
});
