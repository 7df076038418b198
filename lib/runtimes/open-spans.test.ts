import { describe, expect, it } from 'vitest';
import type { SpanStartEvent } from '../contract/span-start';
import { openSpanFromStart } from '../contract/open-span';
import { CLOSED_BY_ATTRIBUTE } from '../spans/loopscope-attributes';
import { classifySpan } from './classify-span';
import { closedSpanFromStart, isPaused, runningToolOf } from './open-spans';
import { DIALECTS } from './index';
import { toyLoop } from './toy/read';

/**
 * Open spans by their dialect: which start is a tool executing, and how a span Loopscope must end
 * is ended in its own runtime's shape. The starts are the attributes the runner's start notices
 * carry (each engine's `spanStarts`: lib/runner/span-starts.ts), as measured on real runs.
 */
const start = (name: string, attributes: Record<string, string>, extra: Partial<SpanStartEvent> = {}): SpanStartEvent => ({
  runId: 'run-1',
  requestId: 'run-1:1',
  traceId: 'a'.repeat(32),
  spanId: 'b'.repeat(16),
  name,
  attributes,
  startTimeUnixNano: '1000',
  ...extra,
});

const GENKIT_TOOL = start('generateReport', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': 'generateReport', 'loopscope:tool-ref': 'report-1', 'genkit:input': '{"seconds":3600}' });
const GENKIT_GO_TOOL = start('getWeather', { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool.v2', 'genkit:name': 'getWeather' }, { resource: { 'telemetry.sdk.language': 'go' } });
const GENKIT_GENERATE = start('generate', { 'genkit:type': 'util', 'genkit:name': 'generate' });
const AI_SDK_TOOL = start('execute_tool generateReport', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'generateReport', 'gen_ai.tool.call.id': 'report-1', 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.arguments': '{"seconds":3600}' }, { scope: { name: 'ai', version: '7.0.0' } });
const AI_SDK_PROVIDER_TOOL = start('execute_tool webSearch', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'webSearch', 'gen_ai.tool.call.id': 'search-1', 'gen_ai.tool.type': 'extension' }, { scope: { name: 'ai', version: '7.0.0' } });
const AI_SDK_CALL = start('invoke_agent scripted/x', { 'gen_ai.operation.name': 'invoke_agent' });

describe('which open span is a tool executing, by its dialect', () => {
  it('genkit JS and Go tool actions, the AI SDK’s execute_tool; not calls, not a tool the provider runs, not an unknown span', () => {
    expect(runningToolOf(openSpanFromStart(GENKIT_TOOL))).toEqual({ name: 'generateReport', ref: 'report-1' });
    expect(runningToolOf(openSpanFromStart(GENKIT_GO_TOOL))).toEqual({ name: 'getWeather' });
    expect(runningToolOf(openSpanFromStart(AI_SDK_TOOL))).toEqual({ name: 'generateReport', ref: 'report-1' });
    expect(runningToolOf(openSpanFromStart(GENKIT_GENERATE))).toBeUndefined();
    expect(runningToolOf(openSpanFromStart(AI_SDK_CALL))).toBeUndefined();
    expect(runningToolOf(openSpanFromStart(AI_SDK_PROVIDER_TOOL))).toBeUndefined();
    expect(runningToolOf(openSpanFromStart(start('fetch', { 'http.method': 'GET' })))).toBeUndefined();
  });

  it('a made-up runtime plugs in through its dialect alone', () => {
    const toyTool = openSpanFromStart(start('tool', { 'toy.kind': 'tool', 'toy.tool': 'dig' }));
    expect(runningToolOf(toyTool)).toBeUndefined();
    expect(runningToolOf(toyTool, [toyLoop, ...DIALECTS])).toEqual({ name: 'dig' });
  });

  it('a tool paused before it runs is not executing', () => {
    expect(isPaused({ name: 'generateReport', ref: 'report-1' }, [{ name: 'generateReport', ref: 'report-1' }])).toBe(true);
    expect(isPaused({ name: 'generateReport', ref: 'report-1' }, [{ name: 'generateReport', ref: 'report-2' }])).toBe(false);
  });
});

describe('an open span closed in its own runtime’s shape', () => {
  const close = (event: SpanStartEvent, kind: 'failed' | 'stopped') =>
    closedSpanFromStart({ event, ending: { kind, message: `It was ${kind}.` }, closedBy: kind === 'stopped' ? 'run-stopped' : 'runner-died', endTimeUnixNano: '5000' });

  it('genkit: genkit:name and genkit:state = error, the start’s attributes kept; classified a failed tool', () => {
    const span = close(GENKIT_TOOL, 'stopped');
    expect(span.attributes).toMatchObject({ 'genkit:name': 'generateReport', 'genkit:state': 'error', 'genkit:input': '{"seconds":3600}', [CLOSED_BY_ATTRIBUTE]: 'run-stopped' });
    expect(span).toMatchObject({ endTimeUnixNano: '5000', status: { code: 2, message: 'It was stopped.' } });
    expect(classifySpan(span)).toMatchObject({ role: 'tool', outcome: 'error', errorMessage: 'It was stopped.' });
  });

  it('the AI SDK: error status and the GenAI conventions’ error.type (cancelled when stopped, _OTHER when its runner died), no genkit keys, its own scope', () => {
    const stopped = close(AI_SDK_TOOL, 'stopped');
    expect(Object.keys(stopped.attributes).filter((key) => key.startsWith('genkit:'))).toEqual([]);
    expect(stopped.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'generateReport', 'error.type': 'cancelled', [CLOSED_BY_ATTRIBUTE]: 'run-stopped' });
    expect(stopped.status).toEqual({ code: 2, message: 'It was stopped.' });
    expect(stopped.scope).toEqual({ name: 'ai', version: '7.0.0' });
    expect(classifySpan(stopped)).toMatchObject({ role: 'tool', label: 'generateReport', outcome: 'error' });
    expect(close(AI_SDK_TOOL, 'failed').attributes['error.type']).toBe('_OTHER');
  });

  it('a span no dialect claims gets the error status only; the end never precedes the start', () => {
    const span = closedSpanFromStart({ event: start('fetch', { 'http.method': 'GET' }, { startTimeUnixNano: '9000' }), ending: { kind: 'failed', message: 'Gone.' }, closedBy: 'runner-died', endTimeUnixNano: '5000' });
    expect(span.attributes).toEqual({ 'http.method': 'GET', [CLOSED_BY_ATTRIBUTE]: 'runner-died' });
    expect(span).toMatchObject({ endTimeUnixNano: '9000', status: { code: 2, message: 'Gone.' } });
  });
});
