import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { loadTraceFile } from '../../../store/load-trace-file';
import { finishReasonsOf } from './genai-attributes';
import { genAiConversationKey } from './genai-conversation-key';
import { messageText, readGenAiMessages, toolCallParts, toolResponsesById } from './genai-messages';

/** The conventions alone, as an app other than the AI SDK records them (hand-written traces: ../__fixtures__/README.md). */
const load = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'otel-genai', '__fixtures__', `${name}.otlp.json`));

describe('a GenAI-conventions trace with no AI SDK specifics', () => {
  it('parallel tools, one failing: chat spans with no agent_step, tools under a span of their own, the loop goes on', async () => {
    const graph = buildRunGraph(await load('parallel-one-failing'));
    expect(graph.summary).toStrictEqual({ traces: 1, generates: 1, modelCalls: 2, toolCalls: 2, interrupts: 0, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' });
    const [call] = graph.generates;
    expect(call.turns.map((turn) => turn.toolCalls.map((tool) => [tool.ref, tool.status, tool.loopWentOn ?? false]))).toEqual([
      [
        ['call_oslo', 'ok', false],
        ['call_rome', 'error', true],
      ],
      [],
    ]);
    expect(call.turns[0].toolCalls[1].errorMessage).toBe('weather service timed out for Rome');
    expect(call.text).toBe("Oslo is 4 °C; Rome's weather could not be fetched.");
    // Both tools fan out of the first model call and join at the second.
    const [first, second] = call.turns.map((turn) => turn.model!.id);
    for (const tool of call.turns[0].toolCalls) {
      expect(graph.edges.some((edge) => edge.source === first && edge.target === tool.id)).toBe(true);
      expect(graph.edges.some((edge) => edge.source === tool.id && edge.target === second)).toBe(true);
    }
  });

  it('a run that stops with tool_call and an unexecuted request is a pause, inferred (nothing marks it)', async () => {
    const graph = buildRunGraph(await load('deferred-tool-pending'));
    expect(graph.summary).toStrictEqual({ traces: 1, generates: 1, modelCalls: 1, toolCalls: 0, interrupts: 1, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'tool_call' });
    expect(graph.generates[0]).toMatchObject({ status: 'interrupted', pendingInterrupts: [{ name: 'delete_file', ref: 'call_delete', input: { path: '/tmp/report.txt' } }] });
  });
});

describe('reading the conventions', () => {
  it('messages: parts kept by type, arguments written as JSON text parsed, unknown part types kept', () => {
    const { messages, problem } = readGenAiMessages(
      JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'a' }, { type: 'tool_call', id: 'c1', name: 't', arguments: '{"x":1}' }, { type: 'tool-approval-request' }], finish_reason: 'tool_call' },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'done' }] },
      ]),
    );
    expect(problem).toBeUndefined();
    expect(toolCallParts(messages[0])).toEqual([{ type: 'tool_call', id: 'c1', name: 't', arguments: { x: 1 } }]);
    expect(messages[0]).toMatchObject({ finishReason: 'tool_call' });
    expect(messages[0].parts.map((part) => part.type)).toEqual(['text', 'tool_call', 'tool-approval-request']);
    expect(toolResponsesById(messages)).toEqual(new Map([['c1', 'done']]));
    expect(messageText(messages[0])).toBe('a');
  });

  it('bad messages are a problem in words, never a throw', () => {
    expect(readGenAiMessages('[{"role":"user","parts":[')).toMatchObject({ messages: [], problem: expect.stringContaining('not JSON') });
    expect(readGenAiMessages('{"role":"user"}')).toEqual({ messages: [], problem: 'the recorded messages are not a list' });
    expect(readGenAiMessages('[{"parts":[]},{"role":"user","parts":"x"}]')).toEqual({ messages: [{ role: 'user', parts: [] }], problem: '1 recorded message(s) have no role' });
    expect(readGenAiMessages(undefined)).toEqual({ messages: [] });
  });

  it('finish reasons: an array attribute, a JSON string or one plain string', () => {
    expect(finishReasonsOf(['tool-calls'])).toEqual(['tool-calls']);
    expect(finishReasonsOf('["stop"]')).toEqual(['stop']);
    expect(finishReasonsOf('stop')).toEqual(['stop']);
    expect(finishReasonsOf('[broken')).toEqual(['[broken']);
    expect(finishReasonsOf(undefined)).toEqual([]);
  });

  it('a conversation key leaves out finish reasons and parts the conventions do not define', () => {
    const bare = readGenAiMessages(JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 't', arguments: { x: 1 } }] }])).messages;
    const withApproval = readGenAiMessages(JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 't', arguments: { x: 1 } }, { type: 'tool-approval-request' }], finish_reason: 'tool_call' }])).messages;
    const otherInput = readGenAiMessages(JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 't', arguments: { x: 2 } }] }])).messages;
    expect(genAiConversationKey(withApproval)).toBe(genAiConversationKey(bare));
    expect(genAiConversationKey(otherInput)).not.toBe(genAiConversationKey(bare));
    expect(genAiConversationKey([])).toBeUndefined();
  });
});
