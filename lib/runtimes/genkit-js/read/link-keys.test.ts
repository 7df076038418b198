import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeCapturedTrace } from '../../../graph/trace-sessions';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { conversationKey, requestsKey } from './link-keys';

/**
 * The keys that tie a genkit interrupt to its answer, on traces of real runs
 * (lib/graph/__fixtures__, made by scripts/fixtures/genkit-js-fixtures.ts) and on hand-made parts where only one
 * property changes at a time.
 */
const spansOf = (name: string): Promise<Span[]> => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

function keysOfTraces(spans: Span[]) {
  const traceIds = [...new Set(spans.map((span) => span.traceId))];
  return traceIds.map((traceId) => summarizeCapturedTrace(traceId, spans.filter((span) => span.traceId === traceId)).linkKeys!);
}

describe('requestsKey', () => {
  const weather = { name: 'getWeather', ref: 'w1', input: { city: 'Paris', units: 'c' } };
  const money = { name: 'transferMoney', ref: 't1', input: { amount: 500 } };

  it('is the same for the same requests in any order and any key order of their inputs', () => {
    expect(requestsKey([weather, money])).toBe(requestsKey([money, { ...weather, input: { units: 'c', city: 'Paris' } }]));
  });

  it('tells apart another name, ref or input', () => {
    const base = requestsKey([weather]);
    expect(requestsKey([{ ...weather, name: 'getForecast' }])).not.toBe(base);
    expect(requestsKey([{ ...weather, ref: 'w2' }])).not.toBe(base);
    expect(requestsKey([{ ...weather, ref: undefined }])).not.toBe(base);
    expect(requestsKey([{ ...weather, input: { city: 'Lyon', units: 'c' } }])).not.toBe(base);
  });
});

describe('conversationKey', () => {
  const conversation: { role: string; content: Record<string, unknown>[] }[] = [
    { role: 'user', content: [{ text: 'Send 500 USD to Bob' }] },
    { role: 'model', content: [{ toolRequest: { name: 'transferMoney', ref: 't1', input: { amount: 500 } }, metadata: { interrupt: { reason: 'approval' } } }] },
  ];

  it('ignores part metadata, which genkit rewrites on resume (bug 3)', () => {
    const rewritten = structuredClone(conversation);
    rewritten[1].content[0].metadata = { resolvedInterrupt: { reason: 'approval' } };
    expect(conversationKey(rewritten)).toBe(conversationKey(conversation));
    const stripped = structuredClone(conversation);
    delete stripped[1].content[0].metadata;
    expect(conversationKey(stripped)).toBe(conversationKey(conversation));
  });

  it('tells apart another text, another role, or one more message', () => {
    const base = conversationKey(conversation);
    const otherText = structuredClone(conversation);
    otherText[0].content[0] = { text: 'Send 500 USD to Carol' };
    expect(conversationKey(otherText)).not.toBe(base);
    const otherRole = structuredClone(conversation);
    otherRole[0].role = 'system';
    expect(conversationKey(otherRole)).not.toBe(base);
    expect(conversationKey([...conversation, { role: 'user', content: [{ text: 'and again' }] }])).not.toBe(base);
  });

  it('is undefined for no messages', () => {
    expect(conversationKey([])).toBeUndefined();
  });
});

describe('keys read from real runs', () => {
  it('interrupt-restart: the interrupted generate and its resume carry the same requests and the same history', async () => {
    const keys = keysOfTraces(await spansOf('interrupt-restart'));
    const interrupted = keys.flatMap((key) => key.interrupted);
    const resumes = keys.flatMap((key) => key.resumes);
    expect(interrupted).toHaveLength(1);
    expect(resumes).toHaveLength(1);
    expect(resumes[0].requests).toBe(interrupted[0].requests);
    expect(resumes[0].requests).toContain('transferMoney#');
    expect(interrupted[0].history).toBeDefined();
    expect(resumes[0].history).toBe(interrupted[0].history);
    expect(resumes[0].startTime).toBeGreaterThan(interrupted[0].startTime);
  });

  it('a generate that finished without an interrupt gives no interrupted key, and a plain call no resume key', async () => {
    const keys = keysOfTraces(await spansOf('plain-round'));
    expect(keys.flatMap((key) => key.interrupted)).toEqual([]);
    expect(keys.flatMap((key) => key.resumes)).toEqual([]);
  });

  it('two conversations asking for the same tool request: same requests key, different histories', async () => {
    const keys = keysOfTraces(await spansOf('two-conversations'));
    const interrupted = keys.flatMap((key) => key.interrupted);
    expect(interrupted.length).toBeGreaterThanOrEqual(2);
    expect(new Set(interrupted.map((key) => key.requests)).size).toBe(1);
    expect(new Set(interrupted.map((key) => key.history)).size).toBe(interrupted.length);
  });
});
