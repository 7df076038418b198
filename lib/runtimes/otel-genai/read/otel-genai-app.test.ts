import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { dialectOf } from '../../index';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';
import { otelGenAi } from '.';

/**
 * Apps of no known framework, on real traces: the Vercel AI SDK's own runs recorded under an
 * app's tracer (not `gen_ai`, so no AI SDK mark tells whose spans they are) and Google ADK's runs
 * read by the conventions alone. What the OTel GenAI conventions say is drawn — rounds, parallel
 * calls, a failure handed to the model, a call left waiting, and the call that answers it linked
 * by tool call id — and nothing in any framework's words.
 */
const aiSdkRun = async (name: string): Promise<Span[]> =>
  (await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', `${name}.otlp.json`))).map((span) => {
    const attributes = { ...span.attributes };
    // The durations @ai-sdk/otel writes as span attributes would still name the AI SDK: an app's own spans have none.
    delete attributes['gen_ai.client.operation.duration'];
    delete attributes['gen_ai.execute_tool.duration'];
    return { ...span, attributes, scope: { name: 'my-app' } };
  });

describe('the generic OTel GenAI reader (apps of no known framework)', () => {
  it('claims GenAI spans no framework claims, and reads them in the conventions’ words only', async () => {
    const spans = await aiSdkRun('ai-sdk-tool-throws');
    expect(new Set(spans.map((span) => dialectOf(span)?.id))).toEqual(new Set(['otel-genai']));
    const graph = buildRunGraph(spans);
    expect(graph.summary).toStrictEqual({ traces: 1, generates: 1, modelCalls: 2, toolCalls: 1, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' });
    const [tool] = graph.generates[0].turns[0].toolCalls;
    expect(tool).toMatchObject({ status: 'error', loopWentOn: true, runtimeState: { code: 'tool-error', words: 'failed — the error was given to the model and the loop went on' } });
    expect(JSON.stringify(graph)).not.toMatch(/stopWhen|step limit|provider|tool-approval/);
  });

  it('a call left waiting for a tool no span ran is paused, and the call that runs it is linked to it by tool call id', async () => {
    const graph = buildRunGraph(await aiSdkRun('ai-sdk-approval-approved'));
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, interrupts: 1, restarts: 1, responds: 0 });
    const [paused, answer] = graph.generates;
    expect(paused.turns[0].toolCalls[0]).toMatchObject({ ref: 'transfer-1', status: 'interrupted', interrupt: { pausedAs: 'not executed' } });
    expect(answer.resume).toMatchObject({ answersGenerateId: paused.id, evidence: 'history' });
    expect(answer.resume!.resolutions[0]).toMatchObject({ kind: 'restart', answersToolCallId: paused.turns[0].toolCalls[0].id, restartedToolCallId: answer.resumeToolCalls[0].id });
    expect(graph.edges.filter((edge) => edge.kind === 'answer').map((edge) => edge.source)).toEqual([paused.turns[0].toolCalls[0].id]);
  });

  it('an answer that is the caller’s result (no tool span) is a respond, linked', async () => {
    const graph = buildRunGraph(await aiSdkRun('ai-sdk-handed-back-tool'));
    const [paused, answer] = graph.generates;
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'respond', request: { name: 'askUser', ref: 'ask-1' }, output: { answer: 'Window' }, answersToolCallId: paused.turns[0].toolCalls[0].id }]);
  });

  it('Google ADK’s spans read by the conventions alone: parallel calls by call id, a failed run, no pause (the conventions mark none)', async () => {
    const parallel = buildRunGraph(await loadFrameworkFixture('google-adk', 'parallel-round'), { dialects: [otelGenAi] });
    expect(parallel.generates[0].turns[0].toolCalls.slice(0, 2).map((tool) => [tool.ref, tool.status])).toEqual([
      ['call_weather_paris', 'ok'],
      ['call_weather_berlin', 'ok'],
    ]);
    expect(parallel.generates[0].runtime).toBe('otel-genai');
    const failed = buildRunGraph(await loadFrameworkFixture('google-adk', 'tool-error-fails'), { dialects: [otelGenAi] });
    expect(failed.summary).toMatchObject({ generates: 1, errors: 1, finishReason: 'error' });
    expect(failed.generates[0]).toMatchObject({ status: 'error', errorMessage: 'ValueError: no weather station in Atlantis', errorStatus: 'ValueError' });
  });
});
