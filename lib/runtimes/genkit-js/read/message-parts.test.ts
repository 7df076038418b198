import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../spans/json-value';
import { loadTraceFile } from '../../../store/load-trace-file';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { Span } from '../../../spans/span';
import type { ToolRequestData } from '../../../loop/loop-model';
import {
  inputMessages,
  messageParts,
  messageText,
  requestLabel,
  sameRequest,
  toolRequestOf,
  toolRequestParts,
  type RecordedPart,
} from './message-parts';

const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

/** The root generate spans of a fixture (one per trace), oldest first. */
const topLevelGenerates = (spans: Span[]) =>
  spans.filter((span) => span.parentSpanId === undefined && span.attributes['genkit:name'] === 'generate').sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));

/** Values a recorded message, part or input can be when a trace is truncated, hand-edited or from another exporter. */
const MALFORMED: unknown[] = [undefined, null, 0, 42, '', 'text', true, [], [1, 2], () => 1, new Date(0), { content: 'not a list' }, { content: null }, { messages: 'x' }];

describe('messageParts', () => {
  it('returns the object parts of a message in order and drops everything else', () => {
    const text = { text: 'hi' };
    const request = { toolRequest: { name: 'getWeather', ref: 'w1', input: { city: 'Paris' } } };
    const message = { role: 'model', content: [text, null, 'loose text', 7, ['nested'], request, undefined] };
    expect(messageParts(message)).toEqual([text, request]);
  });

  it('never throws on a malformed message: an empty list', () => {
    for (const value of MALFORMED) expect(messageParts(value), String(value)).toEqual([]);
  });
});

describe('toolRequestOf', () => {
  it('reads name, ref and input', () => {
    expect(toolRequestOf({ toolRequest: { name: 'transferMoney', ref: 'tx1', input: { amount: 5 } } })).toEqual({ name: 'transferMoney', ref: 'tx1', input: { amount: 5 } });
  });

  it('is undefined without a string name (a request nobody could run or answer)', () => {
    const parts = [
      {},
      { text: 'no request' },
      { toolRequest: {} },
      { toolRequest: { ref: 'r1', input: {} } },
      { toolRequest: { name: 7 } },
      { toolRequest: { name: null } },
      { toolRequest: { name: ['a'] } },
      { toolRequest: null },
      { toolRequest: 'getWeather' },
      { toolRequest: ['getWeather'] },
    ] as RecordedPart[];
    for (const part of parts) expect(toolRequestOf(part), JSON.stringify(part)).toBeUndefined();
  });

  it('drops a ref that is not a string, keeps the request', () => {
    for (const ref of [1, null, {}, ['r'], true]) {
      const request = toolRequestOf({ toolRequest: { name: 'askUser', ref, input: 'q' } });
      expect(request, JSON.stringify(ref)).toEqual({ name: 'askUser', ref: undefined, input: 'q' });
    }
  });
});

describe('toolRequestParts', () => {
  it('pairs each tool request with its part metadata; other parts and broken requests are skipped', () => {
    const message = {
      role: 'model',
      content: [
        { text: 'Let me check.' },
        { toolRequest: { name: 'lookupAccount', ref: 'la1', input: { name: 'bob' } }, metadata: { pendingOutput: { balance: 1200 } } },
        { toolRequest: { ref: 'nameless' } },
        { toolRequest: { name: 'transferMoney', ref: 'tx1', input: { amount: 300 } }, metadata: 'not an object' },
        { toolRequest: { name: 'audit' }, metadata: ['list'] },
      ],
    };
    expect(toolRequestParts(message)).toEqual([
      { request: { name: 'lookupAccount', ref: 'la1', input: { name: 'bob' } }, metadata: { pendingOutput: { balance: 1200 } } },
      { request: { name: 'transferMoney', ref: 'tx1', input: { amount: 300 } }, metadata: {} },
      { request: { name: 'audit', ref: undefined, input: undefined }, metadata: {} },
    ]);
  });

  it('never throws on a malformed message', () => {
    for (const value of MALFORMED) expect(toolRequestParts(value), String(value)).toEqual([]);
  });

  it('reads the interrupted message genkit recorded: the parked output and the interrupt marker', async () => {
    // pending-output: lookupAccount finished (parked as pendingOutput), transferMoney interrupted.
    const spans = await fixture('pending-output');
    const root = topLevelGenerates(spans)[0];
    const output = jsonAttributeOrUndefined(root.attributes['genkit:output']) as { message: unknown };
    const parts = toolRequestParts(output.message);
    expect(parts.map((part) => requestLabel(part.request))).toEqual(['lookupAccount#la1', 'transferMoney#tx1']);
    expect(parts[0].metadata.pendingOutput).toEqual({ name: 'bob', balance: 1200 });
    expect(parts[1].metadata.interrupt).toEqual({ reason: 'approval', to: 'bob', amount: 300 });
  });
});

describe('messageText', () => {
  it('joins the text parts, skipping tool parts and non-string text', () => {
    const message = { content: [{ text: 'It is ' }, { toolRequest: { name: 'x' } }, { text: 12 }, { text: null }, { text: '12°C.' }] };
    expect(messageText(message)).toBe('It is 12°C.');
  });

  it('is undefined when there is no text part, but an empty text is still text', () => {
    expect(messageText({ content: [{ toolRequest: { name: 'getTime' } }] })).toBeUndefined();
    expect(messageText({ content: [{ text: 3 }] })).toBeUndefined();
    expect(messageText({ content: [{ text: '' }] })).toBe('');
    for (const value of MALFORMED) expect(messageText(value), String(value)).toBeUndefined();
  });
});

describe('inputMessages', () => {
  it('returns the object messages of an input, in order', () => {
    const user = { role: 'user', content: [{ text: 'hi' }] };
    const model = { role: 'model', content: [] };
    expect(inputMessages({ messages: [user, 'stray', null, [user], model] })).toEqual([user, model]);
  });

  it('never throws on a malformed input', () => {
    for (const value of MALFORMED) expect(inputMessages(value), String(value)).toEqual([]);
  });

  it('reads a real resume input: the history ends with the interrupted model message', async () => {
    const spans = await fixture('interrupt-restart');
    const root = topLevelGenerates(spans).find((span) => String(span.attributes['genkit:input']).includes('"resume"'))!;
    const messages = inputMessages(jsonAttributeOrUndefined(root.attributes['genkit:input']));
    expect(messages.map((message) => message.role)).toEqual(['user', 'model']);
    expect(toolRequestParts(messages[1]).map((part) => requestLabel(part.request))).toEqual(['transferMoney#tx1']);
  });
});

describe('canonicalJson', () => {
  it('is the same whatever order the keys were written in, at any depth', () => {
    const a = { to: 'bob', amount: 500, meta: { z: 1, a: [{ y: 2, x: 1 }] } };
    const b = { meta: { a: [{ x: 1, y: 2 }], z: 1 }, amount: 500, to: 'bob' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"amount":500,"meta":{"a":[{"x":1,"y":2}],"z":1},"to":"bob"}');
  });

  it('keeps array order: a list is not a set', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('still tells different values apart', () => {
    expect(canonicalJson({ amount: 500 })).not.toBe(canonicalJson({ amount: 50 }));
    expect(canonicalJson({ amount: 500 })).not.toBe(canonicalJson({ amount: '500' }));
    expect(canonicalJson(null)).not.toBe(canonicalJson(undefined));
  });

  it('writes a missing value as "undefined" (JSON.stringify would return undefined) and drops undefined fields like JSON does', () => {
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });

  it('sorts keys of null-prototype objects too (the readers build attribute maps that way)', () => {
    const attributes = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(canonicalJson(attributes)).toBe('{"a":2,"b":1}');
  });
});

describe('requestLabel', () => {
  it('is name#ref, or just the name without a ref', () => {
    expect(requestLabel({ name: 'transferMoney', ref: 'tx1' })).toBe('transferMoney#tx1');
    expect(requestLabel({ name: 'askApproval' })).toBe('askApproval');
    expect(requestLabel({ name: 'askApproval', ref: '' })).toBe('askApproval');
  });
});

describe('sameRequest', () => {
  const request: ToolRequestData = { name: 'transferMoney', ref: 'tx1', input: { to: 'bob', amount: 500 } };

  it('compares name, ref and input, with input keys in any order', () => {
    expect(sameRequest(request, { name: 'transferMoney', ref: 'tx1', input: { amount: 500, to: 'bob' } })).toBe(true);
    expect(sameRequest(request, { ...request, name: 'refund' })).toBe(false);
    expect(sameRequest(request, { ...request, ref: 'tx2' })).toBe(false);
    expect(sameRequest(request, { ...request, input: { to: 'bob', amount: 50 } })).toBe(false);
  });

  it('treats a missing ref and an empty ref alike', () => {
    expect(sameRequest({ name: 'askApproval', input: 'q' }, { name: 'askApproval', ref: '', input: 'q' })).toBe(true);
  });

  it('ignores metadata, which genkit rewrites on resume (bug 3)', () => {
    // genkit turns metadata.interrupt into metadata.resolvedInterrupt in the caller's messages.
    const before = { ...request, metadata: { interrupt: { reason: 'approval' } } };
    const after = { ...request, metadata: { resolvedInterrupt: { reason: 'approval' } } };
    expect(sameRequest(before, after)).toBe(true);
  });
});
