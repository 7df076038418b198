import { describe, expect, it } from 'vitest';
import { nodeRunnerOptions } from '../runtimes/node-runner-options';
import { toyRuntime } from '../runtimes/toy/registration';
import { withRuntime } from '../runtimes/with-runtime';
import { engineSpanStarts, type SpanStarts } from './span-starts';

/**
 * The runner asks every engine it was given what a span start carries, as one: the registry's
 * engines and the toy's (registered by a test with `withRuntime`), each contributing its own.
 */
const engines = nodeRunnerOptions(withRuntime(toyRuntime)).engines;

describe('the span starts of a runner’s engines, as one', () => {
  it('copy every attribute any engine names, once each, in the engines’ order', () => {
    expect(engines.map((engine) => engine.runtime)).toEqual(['genkit-js', 'ai-sdk', 'toy-loop']);
    expect(engineSpanStarts(engines).attributes).toEqual([
      ...['genkit:type', 'genkit:metadata:subtype', 'genkit:name', 'genkit:path', 'genkit:metadata:resumed'],
      ...['gen_ai.operation.name', 'gen_ai.agent.name', 'gen_ai.request.model', 'gen_ai.tool.name', 'gen_ai.tool.call.id', 'gen_ai.tool.type', 'gen_ai.tool.call.arguments'],
      ...['toy.kind', 'toy.tool', 'toy.ref', 'toy.model'],
    ]);
    const echo: SpanStarts = { attributes: ['toy.kind', 'echo.kind'], runsCode: () => false };
    expect(engineSpanStarts([...engines, { spanStarts: echo }]).attributes.slice(-5)).toEqual(['toy.kind', 'toy.tool', 'toy.ref', 'toy.model', 'echo.kind']);
  });

  it('say a span runs code when one engine does, and let every engine add to a start', () => {
    const starts = engineSpanStarts(engines);
    expect(starts.runsCode({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool' }, 'getWeather')).toBe(true);
    expect(starts.runsCode({ 'gen_ai.operation.name': 'execute_tool' }, 'execute_tool getWeather')).toBe(true);
    // The toy's tools are its own functions, not tools/ code.
    expect(starts.runsCode({ 'toy.kind': 'tool', 'toy.tool': 'lookup' }, 'tool')).toBe(false);
    const added: string[] = [];
    const marking = (mark: string): SpanStarts => ({ attributes: [], runsCode: () => false, atStart: (attributes) => void added.push(mark, attributes['toy.kind']) });
    engineSpanStarts([{ spanStarts: marking('first') }, ...engines, { spanStarts: marking('last') }]).atStart!({ 'toy.kind': 'think' }, 'think');
    expect(added).toEqual(['first', 'think', 'last', 'think']);
    // One engine's span starts are its own, as they are.
    expect(engineSpanStarts(engines.slice(0, 1))).toBe(engines[0].spanStarts);
  });
});
