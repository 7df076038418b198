import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { LoopscopeError } from '../../errors';
import { MAX_JSON_DEPTH } from '../../spans/parse-json-limited';
import { deepArrayText, deepObjectText } from '../../spans/testing/deep-json';
import { API_MAX_BODY_BYTES, errorResponse, readBodyLimited, readJsonBody } from './http';

const URL_ = 'http://127.0.0.1:4000/api/runs';

function jsonRequest(body: string, headers: Record<string, string> = {}): Request {
  return new Request(URL_, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

/** A request whose body is a stream (no content-length), sending `chunks` one by one. */
function streamedRequest(chunks: Uint8Array[], headers: Record<string, string> = {}): { request: Request; pulled: () => number; cancelled: () => boolean } {
  let index = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request(URL_, { method: 'POST', body, headers, duplex: 'half' } as RequestInit & { duplex: 'half' });
  return { request, pulled: () => index, cancelled: () => cancelled };
}

async function rejection(promise: Promise<unknown>): Promise<LoopscopeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
  expect(LoopscopeError.isInstance(error)).toBe(true);
  return error as LoopscopeError;
}

describe('readBodyLimited', () => {
  it('returns the bytes of a body under the limit', async () => {
    const bytes = await readBodyLimited(jsonRequest('{"a":1}'), 100);
    expect(new TextDecoder().decode(bytes)).toBe('{"a":1}');
  });

  it('returns an empty array for a request without a body', async () => {
    const bytes = await readBodyLimited(new Request(URL_), 10);
    expect(bytes.byteLength).toBe(0);
  });

  it('refuses a declared content-length over the limit with 413 before reading', async () => {
    const { request, pulled } = streamedRequest([new Uint8Array(10)], { 'content-length': '5000' });
    const error = await rejection(readBodyLimited(request, 1000));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.httpStatus).toBe(413);
    expect(error.message).toContain('5000');
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('refuses a body over the limit even when it comes with a content-length that fits', async () => {
    const request = new Request(URL_, { method: 'POST', body: 'x'.repeat(2000) });
    const error = await rejection(readBodyLimited(request, 1000));
    expect(error.httpStatus).toBe(413);
  });

  it('refuses a streamed body (no content-length) once it passes the limit, and stops reading', async () => {
    const chunk = new Uint8Array(400).fill(65);
    const { request, pulled, cancelled } = streamedRequest(Array.from({ length: 100 }, () => chunk));
    expect(request.headers.get('content-length')).toBeNull();
    const error = await rejection(readBodyLimited(request, 1000));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.httpStatus).toBe(413);
    expect(error.message).toContain('1000');
    expect(pulled()).toBeLessThan(10);
    expect(cancelled()).toBe(true);
  });

  it('joins a streamed body of several chunks that fits exactly', async () => {
    const encoder = new TextEncoder();
    const { request } = streamedRequest([encoder.encode('hello '), encoder.encode('streamed '), encoder.encode('world')]);
    const bytes = await readBodyLimited(request, 'hello streamed world'.length);
    expect(new TextDecoder().decode(bytes)).toBe('hello streamed world');
  });
});

describe('readJsonBody', () => {
  const Schema = z.object({ scenario: z.string().min(1), resume: z.object({ answers: z.array(z.number()) }).optional() });

  it('parses and validates a JSON body', async () => {
    await expect(readJsonBody({ request: jsonRequest('{"scenario":"plain-tool-round"}'), schema: Schema })).resolves.toEqual({ scenario: 'plain-tool-round' });
  });

  it('accepts application/json with a charset', async () => {
    const request = jsonRequest('{"scenario":"x"}', { 'content-type': 'Application/JSON; charset=utf-8' });
    await expect(readJsonBody({ request, schema: Schema })).resolves.toEqual({ scenario: 'x' });
  });

  it.each([undefined, 'text/plain', 'application/x-www-form-urlencoded'])('refuses content type %s with 415', async (contentType) => {
    const request = new Request(URL_, { method: 'POST', body: '{"scenario":"x"}', headers: contentType ? { 'content-type': contentType } : {} });
    if (!contentType) request.headers.delete('content-type');
    const error = await rejection(readJsonBody({ request, schema: Schema }));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.httpStatus).toBe(415);
  });

  it('refuses invalid JSON with 400', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest('{"scenario":'), schema: Schema }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('not valid JSON');
  });

  it.each([
    ['arrays', deepArrayText],
    ['objects', deepObjectText],
  ])('refuses a body of %s nested 10,000 and 1,000 levels deep with 400 naming the depth, before any schema sees it', async (_kind, deep) => {
    // z.unknown() would let any depth through to the code behind the route.
    const Open = z.object({ scenario: z.string(), answer: z.unknown() });
    for (const levels of [10_000, 1_000]) {
      const error = await rejection(readJsonBody({ request: jsonRequest(`{"scenario":"x","answer":${deep(levels)}}`), schema: Open }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.httpStatus).toBe(400);
      expect(error.message).toBe(`The body is nested ${levels + 1} levels deep; the limit is ${MAX_JSON_DEPTH}.`);
    }
    await expect(readJsonBody({ request: jsonRequest(`{"scenario":"x","answer":${deep(MAX_JSON_DEPTH - 1)}}`), schema: Open })).resolves.toMatchObject({ scenario: 'x' });
  });

  it('refuses an empty body as invalid JSON (400)', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest(''), schema: Schema }));
    expect(error.httpStatus).toBe(400);
  });

  it('refuses a schema failure with 400 naming the path', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest('{"scenario":"x","resume":{"answers":[1,"two"]}}'), schema: Schema }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('resume.answers.1');
  });

  it('names (root) when the whole body has the wrong shape', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest('[1,2]'), schema: Schema }));
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('(root)');
  });

  it('names a missing field', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest('{}'), schema: Schema }));
    expect(error.message).toContain('at scenario');
  });

  it('refuses a body over the limit with 413', async () => {
    const error = await rejection(readJsonBody({ request: jsonRequest(JSON.stringify({ scenario: 'x'.repeat(200) })), schema: Schema, maxBytes: 100 }));
    expect(error.httpStatus).toBe(413);
  });

  it('has a 1 MiB default limit', async () => {
    expect(API_MAX_BODY_BYTES).toBe(1024 * 1024);
    const big = jsonRequest(JSON.stringify({ scenario: 'x'.repeat(API_MAX_BODY_BYTES) }));
    const error = await rejection(readJsonBody({ request: big, schema: Schema }));
    expect(error.httpStatus).toBe(413);
  });
});

describe('errorResponse', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['NOT_FOUND', 404],
    ['FAILED_PRECONDITION', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['UNAVAILABLE', 503],
  ] as const)('maps LoopscopeError %s to %i with {error:{code,message}}', async (code, status) => {
    const response = errorResponse(new LoopscopeError(code, `the ${code} message`));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: { code, message: `the ${code} message` } });
  });

  it('answers an unknown error with 500 without leaking its message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = errorResponse(new Error('secret path /home/alice/.env and API_KEY=sk-123'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('sk-123');
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL', message: 'Internal error; see the server log.' } });
    // The details go to the server log instead.
    expect(log).toHaveBeenCalledOnce();
  });

  it('answers a thrown non-Error with 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = errorResponse('a string');
    expect(response.status).toBe(500);
    expect((await response.json()).error.code).toBe('INTERNAL');
  });

  it('does not trust an object that only looks like a LoopscopeError', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = errorResponse({ code: 'NOT_FOUND', message: 'fake', httpStatus: 404 });
    expect(response.status).toBe(500);
  });
});
