import path from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRunnerOptions } from '../runtimes/node-runner-options';
import { REGISTERED_RUNTIMES } from '../runtimes/with-runtime';
import type { LoadedEngine } from './runner-engine';
import { runContext } from './run-context';
import type { GenerateCommand, SpanStartEvent } from './runner-protocol';
import { loadScenarios } from './scenario';
import { SpanLifecycleReporter } from './span-lifecycle-reporter';
import { engineSpanStarts } from './span-starts';

/**
 * The start notices the runner's span reporter sends, for real genkit and AI SDK tool loops
 * played by the registered engines, and for real spans that carry each runtime's start
 * attributes: which attributes a notice carries (a genkit tool's input and ref included, which
 * genkit writes only at the end) and which notices are urgent (the span may run tools/ code).
 * The expected notices were measured on the runner before its runtime knowledge moved into the
 * engines (issue 37): they must stay byte for byte the same. The reporter is the runner's, with
 * what the registered engines say of their spans' starts (`RunnerEngine.spanStarts`).
 */
const registered = nodeRunnerOptions(REGISTERED_RUNTIMES).engines;
const starts: { name: string; attributes: Record<string, string>; scope: SpanStartEvent['scope']; urgent: boolean }[] = [];
const provider = new BasicTracerProvider({
  spanProcessors: [
    new SpanLifecycleReporter({
      spanStarts: engineSpanStarts(registered),
      onStart: (event, { urgent }) => starts.push({ name: event.name, attributes: event.attributes, scope: event.scope, urgent }),
      onEnd: () => undefined,
    }),
  ],
});
let loaded: LoadedEngine[];

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const toolsDir = path.join(process.cwd(), 'tools');
  const { scenarios } = await loadScenarios(path.join(toolsDir, 'scenarios'));
  loaded = [];
  for (const engine of registered) loaded.push(await engine.load({ toolsDir, scenarios, environment: {} }));
});
afterAll(async () => provider.shutdown());

/** Plays a scenario as the runner does (inside a run's context) and returns the start notices of its spans, in order. */
async function startsOf(scenario: string) {
  starts.length = 0;
  const command = { type: 'generate', runId: `run-${scenario}`, requestId: `run-${scenario}:1`, scenario } as GenerateCommand;
  const engine = loaded.find((candidate) => candidate.plays(command))!;
  const run = { runId: command.runId, requestId: command.requestId, traceIds: new Set<string>() };
  const result = await runContext.run(run, () => engine.generate({ command, toolTimeoutMs: 30_000, abortSignal: new AbortController().signal }));
  expect(result.failure).toBeUndefined();
  return [...starts];
}

/** The start notice of one real span started with `attributes` inside a run, and whether it was urgent. */
function startOf(name: string, attributes: Record<string, string>) {
  starts.length = 0;
  const run = { runId: 'run-one', requestId: 'run-one:1', traceIds: new Set<string>() };
  runContext.run(run, () => trace.getTracer('some-runtime').startActiveSpan(name, { attributes }, (span) => span.end()));
  expect(starts).toHaveLength(1);
  return { attributes: starts[0].attributes, urgent: starts[0].urgent };
}

const GENKIT = { name: 'genkit-tracer', version: 'v1' };
const AI_SDK = { name: 'gen_ai' };
const GENERATE = { name: 'generate', attributes: { 'genkit:type': 'util' }, scope: GENKIT, urgent: false };
const GENKIT_SCRIPTED_TURN = { name: 'scripted/plain-tool-round', attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'model' }, scope: GENKIT, urgent: false };
const AI_SDK_SCRIPTED_TURN = { name: 'chat scripted/ai-sdk-plain-tool-round', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted/ai-sdk-plain-tool-round' }, scope: AI_SDK, urgent: false };
const aiSdkStep = (step: number) => ({ name: `step ${step}`, attributes: { 'gen_ai.operation.name': 'agent_step' }, scope: AI_SDK, urgent: false });

/** Each notice as the JSON text it travels as: the attributes' order counts. */
const serialized = (notices: readonly object[]) => notices.map((notice) => JSON.stringify(notice));

describe('the runner’s span start notices', () => {
  it('for a genkit tool round: 6 spans, the 2 tools urgent, each with its input and ref from its request', async () => {
    expect(serialized(await startsOf('plain-tool-round'))).toEqual(
      serialized([
        GENERATE,
        GENKIT_SCRIPTED_TURN,
        { name: 'getWeather', attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:input': '{"city":"Lisbon"}', 'loopscope:tool-ref': 'weather-1' }, scope: GENKIT, urgent: true },
        { name: 'convertTemperature', attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:input': '{"celsius":24}', 'loopscope:tool-ref': 'convert-1' }, scope: GENKIT, urgent: true },
        GENERATE,
        GENKIT_SCRIPTED_TURN,
      ]),
    );
  });

  it('with genkit told by its engine not to start an OpenTelemetry SDK of its own at its first span (the runner’s is the one)', () => {
    // The switch disableGenkitOTelInitialization() sets (@genkit-ai/core's tracing.js): nothing in this file sets it.
    expect((globalThis as Record<string, unknown>).__GENKIT_DISABLE_GENKIT_OTEL_INITIALIZATION).toBe(true);
  });

  it('for an AI SDK tool round: 7 spans, the 2 tools urgent, with the arguments the SDK sets at their start', async () => {
    const tool = (name: string, id: string, input: string) => ({
      name: `execute_tool ${name}`,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': id, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.arguments': input },
      scope: AI_SDK,
      urgent: true,
    });
    expect(serialized(await startsOf('ai-sdk-plain-tool-round'))).toEqual(
      serialized([
        {
          name: 'invoke_agent scripted/ai-sdk-plain-tool-round',
          attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'ai-sdk-plain-tool-round', 'gen_ai.request.model': 'scripted/ai-sdk-plain-tool-round' },
          scope: AI_SDK,
          urgent: false,
        },
        aiSdkStep(1),
        AI_SDK_SCRIPTED_TURN,
        tool('getWeather', 'weather-1', '{"city":"Lisbon"}'),
        tool('convertTemperature', 'convert-1', '{"celsius":24}'),
        aiSdkStep(2),
        AI_SDK_SCRIPTED_TURN,
      ]),
    );
  });

  it('for each runtime’s spans by their start attributes: Loopscope’s own models are not urgent, any other model and every tool is', () => {
    const genkitModel = { 'genkit:type': 'action', 'genkit:metadata:subtype': 'model' };
    const notices = [
      startOf('scripted/plain-tool-round', genkitModel),
      startOf('loopscope/hand-written', genkitModel),
      startOf('openai-compatible/gpt-4o', genkitModel),
      startOf('myFlow', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:metadata:resumed': 'true' }),
      startOf('getWeather', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool' }),
      startOf('generate', { 'genkit:type': 'util', 'genkit:name': 'generate' }),
      startOf('chat scripted/x', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted/x' }),
      startOf('chat loopscope/hand-written', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'loopscope/hand-written' }),
      startOf('chat gpt-4o', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' }),
      startOf('execute_tool search', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.type': 'extension' }),
      startOf('invoke_agent scripted/x', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper', 'gen_ai.request.model': 'scripted/x' }),
      // No runtime's start attributes: nothing is copied, nothing is urgent.
      startOf('fetch', { 'http.method': 'GET' }),
    ];
    expect(serialized(notices)).toEqual(
      serialized([
        { attributes: genkitModel, urgent: false },
        { attributes: genkitModel, urgent: false },
        { attributes: genkitModel, urgent: true },
        { attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:metadata:resumed': 'true' }, urgent: true },
        // A genkit tool that no tool request of the runner's runs: no input or ref to add.
        { attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool' }, urgent: true },
        { attributes: { 'genkit:type': 'util', 'genkit:name': 'generate' }, urgent: false },
        { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted/x' }, urgent: false },
        { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'loopscope/hand-written' }, urgent: false },
        { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' }, urgent: true },
        { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.type': 'extension' }, urgent: true },
        { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper', 'gen_ai.request.model': 'scripted/x' }, urgent: false },
        { attributes: {}, urgent: false },
      ]),
    );
  });
});
