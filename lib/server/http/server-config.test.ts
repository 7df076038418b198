import { afterEach, describe, expect, it } from 'vitest';
import { readHttpTimeouts } from './server-config';

const saved = { headers: process.env.LOOPSCOPE_HEADERS_TIMEOUT_MS, request: process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS };
afterEach(() => {
  for (const [name, value] of [
    ['LOOPSCOPE_HEADERS_TIMEOUT_MS', saved.headers],
    ['LOOPSCOPE_REQUEST_TIMEOUT_MS', saved.request],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('readHttpTimeouts', () => {
  it('defaults to 10 s for headers and 60 s for the whole request', () => {
    delete process.env.LOOPSCOPE_HEADERS_TIMEOUT_MS;
    delete process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS;
    expect(readHttpTimeouts()).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 });
  });

  it('reads both from the environment, ignoring values that are not positive numbers', () => {
    process.env.LOOPSCOPE_HEADERS_TIMEOUT_MS = '700';
    process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS = '1500';
    expect(readHttpTimeouts()).toEqual({ headersTimeoutMs: 700, requestTimeoutMs: 1500 });
    process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS = 'soon';
    expect(readHttpTimeouts().requestTimeoutMs).toBe(60_000);
  });

  it('never lets the headers timeout exceed the request timeout (node:http refuses that)', () => {
    delete process.env.LOOPSCOPE_HEADERS_TIMEOUT_MS;
    process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS = '2000';
    expect(readHttpTimeouts()).toEqual({ headersTimeoutMs: 2000, requestTimeoutMs: 2000 });
  });
});
