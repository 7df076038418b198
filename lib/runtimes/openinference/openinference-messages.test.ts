import { describe, expect, it } from 'vitest';
import { loadFrameworkFixture } from '../testing/framework-fixtures';
import { openInferenceKind } from './openinference-attributes';
import { openInferenceMessages, openInferenceTools } from './openinference-messages';

/** OpenInference's flattened messages, on a real LLM span (LangGraph through openinference-instrumentation-langchain). */
describe('OpenInference messages', () => {
  it('reads an LLM span’s flattened messages and tools into the GenAI conventions’ shapes', async () => {
    const spans = await loadFrameworkFixture('langgraph', 'openinference-tool-interrupt-approve');
    const llms = spans.filter((span) => openInferenceKind(span) === 'LLM').sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano));
    expect(llms).toHaveLength(2);
    const first = openInferenceMessages(llms[0]);
    expect(first.input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Book a table for two at Chez Loop tonight, invite ana@example.com, and tell me the weather in Paris.' }] }]);
    expect(first.output[0].parts.map((part) => [part.type, part.id, part.name, part.arguments])).toEqual([
      ['tool_call', 'call_weather_paris', 'get_weather', { city: 'Paris' }],
      ['tool_call', 'call_book_table', 'book_table', { restaurant: 'Chez Loop', party: 2 }],
      ['tool_call', 'call_send_invite', 'send_invite', { to: 'ana@example.com', text: 'Dinner at Chez Loop, 20:00?' }],
    ]);
    // The answering run's model call: the tool messages are tool results by call id.
    const second = openInferenceMessages(llms[1]);
    expect(second.input.slice(2).map((message) => [message.role, message.parts[0]])).toEqual([
      ['tool', { type: 'tool_call_response', id: 'call_weather_paris', response: 'sunny, 21 C', name: 'get_weather' }],
      ['tool', { type: 'tool_call_response', id: 'call_book_table', response: 'table for 2 booked at Chez Loop, 20:00', name: 'book_table' }],
      ['tool', { type: 'tool_call_response', id: 'call_send_invite', response: 'invitation sent to ana@example.com', name: 'send_invite' }],
    ]);
    expect([...(openInferenceTools(llms[0])?.keys() ?? [])]).toEqual(['get_weather', 'book_table', 'send_invite']);
    expect(openInferenceTools(llms[0])?.get('book_table')).toMatchObject({ type: 'function', description: 'Books a table at a restaurant for tonight.', inputSchema: { required: ['restaurant', 'party'] } });
  });
});
