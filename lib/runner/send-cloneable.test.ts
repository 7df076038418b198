import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { sendCloneable } from './send-cloneable';

/** What an 'advanced' IPC channel does with a message: V8's serializer, which throws on what it cannot clone. */
function channel() {
  const received: unknown[] = [];
  return { received, send: (message: unknown) => void received.push(deserialize(serialize(message))) };
}

describe('sendCloneable', () => {
  it('sends a cloneable message as V8 clones it (undefined fields and all)', () => {
    const { received, send } = channel();
    sendCloneable(send, { type: 'generate-result', outcome: { text: 'ok', note: undefined } });
    expect(received).toEqual([{ type: 'generate-result', outcome: { text: 'ok', note: undefined } }]);
    expect(Object.keys((received[0] as { outcome: object }).outcome)).toEqual(['text', 'note']);
  });

  it('sends a message holding a function as JSON would have: without the function, the rest kept', () => {
    const { received, send } = channel();
    sendCloneable(send, { type: 'generate-result', outcome: { messages: [{ role: 'tool', content: [{ toolResponse: { output: { total: 3, format: () => '3' } } }] }] } });
    expect(received).toEqual([{ type: 'generate-result', outcome: { messages: [{ role: 'tool', content: [{ toolResponse: { output: { total: 3 } } }] }] } }]);
  });

  it('lets any other failure of the channel through', () => {
    const closed = () => {
      throw new Error('Channel closed');
    };
    expect(() => sendCloneable(closed, { type: 'pong' })).toThrow('Channel closed');
  });
});
