import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import type { Span } from '../../../spans/span';
import { loadFrameworkFixture } from '../../testing/framework-fixtures';
import { agentsConversation } from './openai-agents-messages';

/**
 * The answers of an OpenAI Agents run when its history does not say which item id is which call
 * id by order: the SDK names a past call by its item id (`fc_…`) and its result by the call id
 * (`call_…`), and puts the results in the order they were made — a call that ran in the paused
 * run before one answered later, whatever the model's order. Made from the approval-approve
 * fixture with the model's two calls swapped.
 */
const swapped = (text: string) => {
  const messages = JSON.parse(text) as { role: string; parts: { type: string; id?: string }[] }[];
  const calls = messages.filter((message) => message.role === 'assistant' && message.parts.every((part) => part.type === 'tool_call'));
  if (calls.length !== 2) return text;
  const [first, second] = [messages.indexOf(calls[0]), messages.indexOf(calls[1])];
  [messages[first], messages[second]] = [messages[second], messages[first]];
  // The item ids stay in the order of the items.
  const ids = [calls[0], calls[1]].map((message) => message.parts[0].id as string);
  if (ids.every((id) => id.startsWith('fc_'))) [messages[first].parts[0].id, messages[second].parts[0].id] = ids;
  return JSON.stringify(messages);
};

async function pausedFirst(): Promise<Span[]> {
  return (await loadFrameworkFixture('openai-agents', 'approval-approve')).map((span) => {
    const attributes = { ...span.attributes };
    for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) if (typeof attributes[key] === 'string') attributes[key] = swapped(attributes[key] as string);
    return { ...span, attributes };
  });
}

describe('OpenAI Agents answers by call id, whatever the history’s order', () => {
  it('reads each item id as the call id of the result after it, in order, and merges one answer’s calls into one message', () => {
    const read = agentsConversation({
      messages: [
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'fc_1', name: 'a', arguments: {} }] },
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'fc_2', name: 'b', arguments: {} }] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_a', response: 'A' }] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_b', response: 'B' }] },
      ],
    });
    expect(read.messages.map((message) => message.parts.map((part) => part.id))).toEqual([['call_a', 'call_b'], ['call_a'], ['call_b']]);
    expect(read.messages[0].parts[0].extra).toEqual({ itemId: 'fc_1' });
  });

  it('a paused call first and the call that ran second: the approval is tied to the paused call by the result its tool span returned', async () => {
    const graph = buildRunGraph(await pausedFirst());
    const [paused, answer] = graph.generates;
    expect(paused.turns[0].toolCalls.map((call) => [call.name, call.ref, call.status])).toEqual([
      ['book_hotel', 'call_book_paris', 'interrupted'],
      ['get_weather', 'call_weather_paris', 'ok'],
    ]);
    // The history names book_hotel's item first, and the weather's result first: by order they would be swapped.
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'restart', request: { name: 'book_hotel', ref: 'call_book_paris' }, answersToolCallId: paused.turns[0].toolCalls[0].id, words: 'approved (state.approve) — the tool ran in the answering run' }]);
    expect(answer.resumeToolCalls[0].ref).toBe('call_book_paris');
    expect(graph.summary).toMatchObject({ interrupts: 1, restarts: 1, responds: 0 });
  });
});
