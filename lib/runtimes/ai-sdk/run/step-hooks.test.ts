import { tool, type ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { Span } from '../../../spans/span';
import { startInProcessCapture, type InProcessCapture } from '../../../runner/in-process-capture';
import { RunStepper } from '../../../runner/run-stepper';
import type { PauseDecision, PauseInfo, RunMode } from '../../../runner/step-protocol';
import { checkAiSdkDecision } from './check-ai-sdk-decision';
import type { AiSdkToolCatalog } from './load-ai-sdk-tools';

/**
 * The AI SDK's stepping hooks in process, on the real `generateText` and the real
 * `@ai-sdk/otel` spans: each pause counted, each decision changing what the loop did, and the
 * spans that arrive counted (the hooks add none: 2 steps + 2 chats + the tool spans + the call).
 */
let capture: InProcessCapture;
let runAiSdkCall: typeof import('./run-ai-sdk-call').runAiSdkCall;
const executed: string[] = [];

const tools: ToolSet = {
  getWeather: tool({
    description: 'Weather for a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      executed.push(`getWeather ${city}`);
      return { city, temperatureC: 24 };
    },
  }),
  checkInventory: tool({
    description: 'Always down.',
    inputSchema: z.object({ sku: z.string() }),
    outputSchema: z.object({ sku: z.string(), inStock: z.number() }),
    execute: async () => {
      executed.push('checkInventory');
      throw new Error('inventory service is down');
    },
  }),
};
const catalog: AiSdkToolCatalog = { tools, policies: {}, files: {}, problems: [] };

/** The second turn quotes the tool's output, so what the tool ran with (or was answered with) shows in the answer. */
const weather: AiSdkScenario = {
  name: 'step-weather',
  runtime: 'ai-sdk',
  title: 'weather',
  description: '',
  prompt: 'Weather in Lisbon?',
  tools: ['getWeather'],
  script: [{ toolCalls: [{ name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } }] }, { text: 'It is {{getWeather#weather-1.temperatureC}}°C in {{getWeather#weather-1.city}}.' }],
} as AiSdkScenario;

const inventory: AiSdkScenario = {
  ...weather,
  name: 'step-inventory',
  tools: ['checkInventory'],
  script: [{ toolCalls: [{ name: 'checkInventory', ref: 'stock-1', input: { sku: 'MUG' } }] }, { text: 'Stock: {{checkInventory#stock-1.inStock}}.' }],
} as AiSdkScenario;

beforeAll(async () => {
  capture = await startInProcessCapture({ serviceName: 'ai-sdk-step-hooks-test' });
  const [{ registerTelemetry }, { OpenTelemetry }] = await Promise.all([import('ai'), import('@ai-sdk/otel')]);
  registerTelemetry(new OpenTelemetry());
  ({ runAiSdkCall } = await import('./run-ai-sdk-call'));
});
afterAll(async () => capture?.shutdown());

/**
 * Runs a scenario with a stepper; `decide` answers each pause as it comes (by its order among
 * the pauses), and every pause is recorded.
 */
async function stepped({ scenario, mode, decide }: { scenario: AiSdkScenario; mode: RunMode; decide: (pause: PauseInfo, index: number) => PauseDecision | 'stop' }) {
  executed.length = 0;
  const pauses: PauseInfo[] = [];
  const stepper: RunStepper = new RunStepper(mode, {
    pauseTimeoutMs: 10_000,
    onPause: (pause) => {
      pauses.push(pause);
      // Decided on the next tick, as a decision arriving over IPC would be.
      setImmediate(() => {
        const decision = decide(pause, pauses.length - 1);
        if (decision === 'stop') stepper.stop();
        else stepper.decide(pause.pauseId, decision);
      });
    },
    onPauseEnded: () => undefined,
  });
  const result = await runAiSdkCall({ scenario, catalog, stepper, toolTimeoutMs: 1_000 });
  const { spans } = await capture.take();
  return { result, pauses, spans, graph: buildRunGraph(spans) };
}

const names = (spans: Span[]) => spans.map((span) => span.name.replace(/scripted\/[\w-]+/, 'M')).sort();
const describePause = (pause: PauseInfo) => (pause.kind === 'model' ? `model ${pause.modelTurn}` : `tool ${pause.tool?.name}#${pause.tool?.ref}`);
const toolSpan = (spans: Span[]) => spans.find((span) => span.name.startsWith('execute_tool'))!;

describe('AI SDK step hooks (real generateText, real spans)', () => {
  it('step mode pauses before each model call and each tool execution, in the SDK’s order, and adds no span', async () => {
    const { result, pauses, spans } = await stepped({ scenario: weather, mode: { kind: 'step' }, decide: () => ({ action: 'continue' }) });
    expect(pauses.map(describePause)).toEqual(['model 1', 'tool getWeather#weather-1', 'model 2']);
    expect(result.outcome?.text).toBe('It is 24°C in Lisbon.');
    expect(names(spans)).toEqual(['chat M', 'chat M', 'execute_tool getWeather', 'invoke_agent M', 'step 1', 'step 2']);
    // A model pause carries the request it would send, and every pause says what it takes.
    expect(pauses[0].request).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Weather in Lisbon?' }] }]);
    expect(pauses[0].actions).toEqual(['continue', 'edit-request', 'replace-answer', 'fail']);
    expect(pauses[1].actions).toEqual(['continue', 'edit-input', 'answer', 'fail']);
  });

  it('Run mode with the hooks installed takes no pause; breakpoints pause only where set', async () => {
    const none = await stepped({ scenario: weather, mode: { kind: 'run' }, decide: () => ({ action: 'continue' }) });
    expect(none.pauses).toEqual([]);
    expect(none.result.outcome?.text).toBe('It is 24°C in Lisbon.');
    const onTool = await stepped({ scenario: weather, mode: { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } }, decide: () => ({ action: 'continue' }) });
    expect(onTool.pauses.map(describePause)).toEqual(['tool getWeather#weather-1']);
    const onModel = await stepped({ scenario: weather, mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [2] } }, decide: () => ({ action: 'continue' }) });
    expect(onModel.pauses.map(describePause)).toEqual(['model 2']);
  });

  it('edit input: the tool runs with the edited input, and its span records it beside the model’s own', async () => {
    const { result, spans } = await stepped({
      scenario: weather,
      mode: { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } },
      decide: () => ({ action: 'edit-input', input: { city: 'Porto' } }),
    });
    expect(executed).toEqual(['getWeather Porto']);
    expect(result.outcome?.text).toBe('It is 24°C in Porto.');
    const span = toolSpan(spans);
    expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Porto' });
    expect(JSON.parse(span.attributes['loopscope.step.model_arguments'] as string)).toEqual({ city: 'Lisbon' });
  });

  it('answer without running: a throwing tool never runs, its hand-written result reaches the model, the graph says so', async () => {
    const { result, spans, graph } = await stepped({
      scenario: inventory,
      mode: { kind: 'breakpoints', breakpoints: { tools: ['checkInventory'], modelTurns: [] } },
      decide: () => ({ action: 'answer', output: { sku: 'MUG', inStock: 7 } }),
    });
    expect(executed).toEqual([]);
    expect(result.outcome?.text).toBe('Stock: 7.');
    expect(toolSpan(spans).status.code).not.toBe(2);
    const call = graph.generates[0].turns[0].toolCalls[0];
    expect(call).toMatchObject({ name: 'checkInventory', status: 'ok', answeredByHand: true, output: { sku: 'MUG', inStock: 7 } });
  });

  it('fail here (tool): the SDK hands the model a tool-error and the loop goes on', async () => {
    const { result, graph } = await stepped({ scenario: weather, mode: { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } }, decide: () => ({ action: 'fail', message: 'Weather unplugged by hand' }) });
    expect(executed).toEqual([]);
    expect(result.failure).toBeUndefined();
    const call = graph.generates[0].turns[0].toolCalls[0];
    expect(call.status).toBe('error');
    expect(call.errorMessage).toContain('Weather unplugged by hand');
    expect(call.runtimeState?.code).toBe('tool-error');
  });

  it('replace the model’s answer: no model call, a chat span answered by loopscope/hand-written, drawn as hand-written', async () => {
    const { result, graph, spans } = await stepped({
      scenario: weather,
      mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [1] } },
      decide: () => ({ action: 'replace-answer', parts: [{ text: 'Written by hand.' }] }),
    });
    expect(result.outcome?.text).toBe('Written by hand.');
    expect(executed).toEqual([]);
    expect(names(spans)).toEqual(['chat M', 'invoke_agent M', 'step 1']);
    const model = graph.generates[0].turns[0].model;
    expect(model).toMatchObject({ handWritten: true, model: 'loopscope/hand-written', text: 'Written by hand.' });
  });

  it('replace the model’s answer with a tool call: the SDK runs the hand-written call, then the script goes on', async () => {
    const { result, pauses } = await stepped({
      scenario: weather,
      mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [1] } },
      decide: () => ({ action: 'replace-answer', parts: [{ toolRequest: { name: 'getWeather', ref: 'weather-1', input: { city: 'Faro' } } }] }),
    });
    expect(pauses).toHaveLength(1);
    expect(executed).toEqual(['getWeather Faro']);
    expect(result.outcome?.text).toBe('It is 24°C in Faro.');
  });

  it('edit the request: the model is sent the edited prompt (here a tool result changed), and the chat span keeps it', async () => {
    const { result, spans } = await stepped({
      scenario: weather,
      mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [2] } },
      decide: (pause) => {
        const request = structuredClone(pause.request) as { role: string; content: { type: string; output?: { type: string; value: unknown } }[] }[];
        const result = request.find((message) => message.role === 'tool')!.content[0];
        result.output = { type: 'json', value: { city: 'Edited', temperatureC: -3 } };
        return { action: 'edit-request', request: request as never };
      },
    });
    expect(executed).toEqual(['getWeather Lisbon']);
    expect(result.outcome?.text).toBe('It is -3°C in Edited.');
    const chats = spans.filter((span) => span.name.startsWith('chat')).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    expect(chats[0].attributes['loopscope.step.edited_request']).toBeUndefined();
    expect(String(chats[1].attributes['loopscope.step.edited_request'])).toContain('Edited');
  });

  it('fail here (model): the call fails with the message, as a provider error would', async () => {
    const { result } = await stepped({ scenario: weather, mode: { kind: 'step' }, decide: () => ({ action: 'fail', message: 'Model unplugged by hand' }) });
    expect(result.failure?.message).toContain('Model unplugged by hand');
    expect(executed).toEqual([]);
  });

  it('stop at a model pause fails the call “stopped by the user”; at a tool pause the next model call ends it', async () => {
    const atModel = await stepped({ scenario: weather, mode: { kind: 'step' }, decide: () => 'stop' });
    expect(atModel.result.failure?.message).toMatch(/stopped by the user/);
    const root = atModel.spans.find((span) => span.parentSpanId === undefined);
    expect(root?.status.code).toBe(2);

    const atTool = await stepped({ scenario: weather, mode: { kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } }, decide: () => 'stop' });
    expect(atTool.result.failure?.message).toMatch(/stopped by the user/);
    expect(executed).toEqual([]);
    expect(atTool.pauses).toHaveLength(1);
  });

  it('a pause does not count against the tool time limit (the limit starts after the pause)', async () => {
    const slow: ToolSet = {
      getWeather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }, { abortSignal }) => {
          abortSignal?.throwIfAborted();
          return { city, temperatureC: 1 };
        },
      }),
    };
    const stepper = new RunStepper({ kind: 'breakpoints', breakpoints: { tools: ['getWeather'], modelTurns: [] } }, {
      pauseTimeoutMs: 10_000,
      onPause: (pause) => setTimeout(() => stepper.decide(pause.pauseId, { action: 'continue' }), 300),
      onPauseEnded: () => undefined,
    });
    const result = await runAiSdkCall({ scenario: weather, catalog: { ...catalog, tools: slow }, stepper, toolTimeoutMs: 100 });
    await capture.take();
    expect(result.outcome?.text).toBe('It is 1°C in Lisbon.');
  });
});

describe('streamText: the same model pauses through wrapStream', () => {
  it('pauses before each streamed model call; a hand-written answer streams as the model’s, a continued call streams the script', async () => {
    const [{ streamText, stepCountIs }, { scriptedLanguageModel }, { steppedCall }] = await Promise.all([import('ai'), import('./scripted-language-model'), import('./step-hooks')]);
    const pauses: PauseInfo[] = [];
    const stepper: RunStepper = new RunStepper({ kind: 'step' }, {
      pauseTimeoutMs: 10_000,
      onPause: (pause) => {
        pauses.push(pause);
        setImmediate(() => stepper.decide(pause.pauseId, pause.modelTurn === 2 ? { action: 'replace-answer', parts: [{ text: 'Streamed by hand.' }] } : { action: 'continue' }));
      },
      onPauseEnded: () => undefined,
    });
    executed.length = 0;
    const call = steppedCall({ model: scriptedLanguageModel(weather), tools: { getWeather: tools.getWeather }, stepper });
    const result = streamText({ ...call, prompt: weather.prompt, stopWhen: stepCountIs(5) });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    await capture.take();
    expect(pauses.map(describePause)).toEqual(['model 1', 'tool getWeather#weather-1', 'model 2']);
    expect(executed).toEqual(['getWeather Lisbon']);
    expect(text).toBe('Streamed by hand.');
    expect((await result.response).modelId).toBe('loopscope/hand-written');
  });
});

describe('the tool time limit while stepping', () => {
  it('still applies after the pause: a tool that outlives it sees its signal abort, and the model gets a tool-error', async () => {
    const hangs: ToolSet = {
      getWeather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }, { abortSignal }) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(() => resolve({ city, temperatureC: 1 }), 5_000);
            abortSignal?.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(abortSignal.reason as Error);
            });
          }),
      }),
    };
    const stepper = new RunStepper({ kind: 'run' }, { pauseTimeoutMs: 10_000, onPause: () => undefined, onPauseEnded: () => undefined });
    const started = Date.now();
    const result = await runAiSdkCall({ scenario: weather, catalog: { ...catalog, tools: hangs }, stepper, toolTimeoutMs: 100 });
    const { spans } = await capture.take();
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.failure).toBeUndefined();
    const span = toolSpan(spans);
    expect(span.status.code).toBe(2);
    expect(String(span.status.message)).toContain('did not finish within 100 ms');
  });
});

describe('Stop while a tool runs (no pause)', () => {
  it('fires the running tool’s signal, and the call fails “stopped by the user” before the next model call', async () => {
    let sawAbort = false;
    const stepper = new RunStepper({ kind: 'run' }, { pauseTimeoutMs: 10_000, onPause: () => undefined, onPauseEnded: () => undefined });
    const running: ToolSet = {
      getWeather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: (_input, { abortSignal }) =>
          new Promise((_resolve, reject) => {
            abortSignal?.addEventListener('abort', () => {
              sawAbort = true;
              reject(abortSignal.reason as Error);
            });
            setTimeout(() => stepper.stop(), 20);
          }),
      }),
    };
    const result = await runAiSdkCall({ scenario: weather, catalog: { ...catalog, tools: running }, stepper, toolTimeoutMs: 5_000 });
    const { spans } = await capture.take();
    expect(sawAbort).toBe(true);
    expect(result.failure?.message).toMatch(/stopped by the user/);
    // The SDK opens the next chat span, and the wrapped model fails it before calling the model.
    const chats = spans.filter((span) => span.name.startsWith('chat')).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
    expect(chats).toHaveLength(2);
    expect(chats[0].status.code).not.toBe(2);
    expect(chats[1].status.code).toBe(2);
    expect(String(chats[1].status.message)).toMatch(/stopped by the user/);
  });
});

describe('checkAiSdkDecision', () => {
  const pause: PauseInfo = { pauseId: 'p', kind: 'tool', tool: { name: 'checkInventory', ref: 'stock-1', input: { sku: 'MUG' } }, pausedAt: 0 };
  it('checks inputs and outputs against the tool’s own schemas, hand-written calls against the offered tools, a request against the prompt’s shape', async () => {
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'edit-input', input: { sku: 42 } } })).toEqual([expect.stringMatching(/^input: sku: /)]);
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'edit-input', input: { sku: 'CUP' } } })).toEqual([]);
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'answer', output: { sku: 'CUP' } } })).toEqual([expect.stringMatching(/^output: inStock: /)]);
    const parts = [{ toolRequest: { name: 'nope', ref: 'n-1', input: {} } }, { toolRequest: { name: 'getWeather', ref: 'w-1', input: { city: 1 } } }];
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'replace-answer', parts } })).toEqual(['nope#n-1: no tool named nope is offered to the model', expect.stringMatching(/^getWeather#w-1: city: /)]);
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'edit-request', request: [{ role: 'robot', content: 'hi' }] } })).toEqual([expect.stringMatching(/^request: 0\.role/)]);
    expect(await checkAiSdkDecision({ tools, pause, decision: { action: 'edit-request', request: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } })).toEqual([]);
  });
});
