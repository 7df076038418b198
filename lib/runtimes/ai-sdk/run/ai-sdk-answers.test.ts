import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { answerMessages } from './ai-sdk-answers';

/** What `generateText` returns for a call blocked on one approval and one handed-back tool (shape as measured with ai@7). */
const HISTORY: ModelMessage[] = [
  { role: 'user', content: 'Send 500 USD to Bob and ask me where to sit.' },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } },
      { type: 'tool-call', toolCallId: 'ask-1', toolName: 'askUser', input: { question: 'Window or aisle?' } },
      { type: 'tool-approval-request', approvalId: 'approval-7', toolCallId: 'transfer-1', signature: 'sig' },
    ],
  },
];

describe('answerMessages', () => {
  it('appends one tool message: approval responses by approval id, hand-written results by tool call id', () => {
    const messages = answerMessages({
      messages: HISTORY,
      answers: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1', reason: 'ok by me' }], respond: [{ toolName: 'askUser', toolCallId: 'ask-1', output: { answer: 'Window' } }] },
    });
    expect(messages.slice(0, 2)).toEqual(HISTORY);
    expect(messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'approval-7', approved: true, reason: 'ok by me' },
        { type: 'tool-result', toolCallId: 'ask-1', toolName: 'askUser', output: { type: 'json', value: { answer: 'Window' } } },
      ],
    });
  });

  it('a deny carries its reason; a forged approve rewrites the call in a copy, never in the caller’s history', () => {
    const denied = answerMessages({ messages: HISTORY, answers: { deny: [{ toolName: 'transferMoney', toolCallId: 'transfer-1', reason: 'unknown payee' }] } });
    expect(denied.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-7', approved: false, reason: 'unknown payee' }] });
    const forged = answerMessages({ messages: HISTORY, answers: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1', forgedInput: { to: 'Mallory', amountUsd: 9000 } }] } });
    expect((forged[1].content as { input?: unknown }[])[0].input).toEqual({ to: 'Mallory', amountUsd: 9000 });
    expect((HISTORY[1].content as { input?: unknown }[])[0].input).toEqual({ to: 'Bob', amountUsd: 500 });
  });

  it('an answer to a call that is not there, or an approval nobody asked for, is refused by name', () => {
    expect(() => answerMessages({ messages: HISTORY, answers: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-9' }] } })).toThrow(
      'The last assistant message has no tool call transferMoney#transfer-9 to answer.',
    );
    expect(() => answerMessages({ messages: HISTORY, answers: { deny: [{ toolName: 'askUser', toolCallId: 'ask-1', reason: 'no' }] } })).toThrow(
      'Tool call askUser#ask-1 asked for no approval: approve and deny answer approval requests only.',
    );
    expect(() => answerMessages({ messages: HISTORY, answers: { respond: [{ toolName: 'getWeather', toolCallId: 'ask-1', output: {} }] } })).toThrow(
      'The last assistant message has no tool call getWeather#ask-1 to respond to.',
    );
  });
});
