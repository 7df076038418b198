import { expect, test } from '@playwright/test';
import { MAX_JSON_DEPTH } from '../lib/spans/parse-json-limited';
import { deepArrayText, deepKvlistValueText, OTLP_ATTRIBUTE_VALUE_DEPTH, otlpBodyText } from '../lib/spans/testing/deep-json';
import { AUTH, BASE_URL, rawRequest, tinyOtlpTrace } from './helpers';

interface TraceList {
  traces: { traceId: string; name: string; spanCount: number }[];
}

test.describe('the server guards every request', () => {
  test('a page reached under a foreign Host name (DNS rebinding) gets 403 on the UI and the API', async () => {
    const home = await rawRequest({ path: '/', headers: { host: 'evil.example' } });
    expect(home.status).toBe(403);
    const homeWithPort = await rawRequest({ path: '/', headers: { host: 'evil.example:4799' } });
    expect(homeWithPort.status).toBe(403);
    const api = await rawRequest({ path: '/api/traces', headers: { host: 'evil.example', ...AUTH } });
    expect(api.status).toBe(403);
    expect(api.text).not.toContain('"traces"');
    // Sanity check: the same requests under our own Host are served.
    expect((await rawRequest({ path: '/' })).status).toBe(200);
    expect((await rawRequest({ path: '/api/traces', headers: AUTH })).status).toBe(200);
  });

  test('the API answers 401 without the token or with a wrong one, and 200 with it', async ({ request }) => {
    const none = await request.get('/api/traces');
    expect(none.status()).toBe(401);
    const wrong = await request.get('/api/traces', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status()).toBe(401);
    const wrongLength = await request.get('/api/traces', { headers: { authorization: 'Bearer e2e-token-0123456789x' } });
    expect(wrongLength.status()).toBe(401);
    const right = await request.get('/api/traces', { headers: AUTH });
    expect(right.status()).toBe(200);
    expect(Array.isArray(((await right.json()) as TraceList).traces)).toBe(true);
  });

  test('a POST to start a run from a foreign or null Origin is refused even with the token', async ({ request }) => {
    const before = ((await (await request.get('/api/runs', { headers: AUTH })).json()) as { runs: unknown[] }).runs.length;
    const evil = await request.post('/api/runs', { headers: { ...AUTH, origin: 'http://evil.example' }, data: { scenario: 'plain-tool-round' } });
    expect(evil.status()).toBe(403);
    const nullOrigin = await request.post('/api/runs', { headers: { ...AUTH, origin: 'null' }, data: { scenario: 'plain-tool-round' } });
    expect(nullOrigin.status()).toBe(403);
    const after = ((await (await request.get('/api/runs', { headers: AUTH })).json()) as { runs: unknown[] }).runs.length;
    expect(after).toBe(before);
  });

  test('GET /api/runs only lists runs; starting a run needs a POST', async ({ request }) => {
    const first = await request.get('/api/runs?scenario=plain-tool-round', { headers: AUTH });
    expect(first.status()).toBe(200);
    const listed = (await first.json()) as { runs: unknown[] };
    expect(Array.isArray(listed.runs)).toBe(true);
    const second = await request.get('/api/runs?scenario=plain-tool-round', { headers: AUTH });
    expect(((await second.json()) as { runs: unknown[] }).runs.length).toBe(listed.runs.length);
  });

  test('an exporter without a token and without an Origin can send OTLP JSON, and the trace is listed', async ({ request }) => {
    const { traceId, body } = tinyOtlpTrace('e2e-external-span');
    const sent = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body });
    expect(sent.status, sent.text).toBe(200);
    await expect
      .poll(async () => {
        const list = (await (await request.get('/api/traces', { headers: AUTH })).json()) as TraceList;
        return list.traces.find((trace) => trace.traceId === traceId)?.spanCount;
      })
      .toBe(1);
    const stored = await request.get(`/api/traces/${traceId}`, { headers: AUTH });
    expect(stored.status()).toBe(200);
    expect(await stored.text()).toContain('e2e-external-span');
  });

  test('the same OTLP body sent with an Origin header but no token is refused with 401', async () => {
    const { body } = tinyOtlpTrace('e2e-browser-span');
    const sent = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json', origin: BASE_URL }, body });
    expect(sent.status).toBe(401);
  });

  test('a malformed OTLP body gets 400 with a JSON message', async () => {
    const sent = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body: '{"resourceSpans": 5}' });
    expect(sent.status).toBe(400);
    expect(sent.headers['content-type']).toContain('application/json');
    const payload = JSON.parse(sent.text) as { message?: unknown; error?: { message?: unknown } };
    const message = payload.message ?? payload.error?.message;
    expect(typeof message).toBe('string');
    expect((message as string).length).toBeGreaterThan(0);
  });

  test('an exporter sends a valid 12 MB OTLP batch (under the 32 MiB limit) and it is accepted whole', async ({ request }) => {
    const { traceId, body } = tinyOtlpTrace('e2e-large-batch');
    const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: { attributes: unknown[] }[] }[] }[] };
    parsed.resourceSpans[0].scopeSpans[0].spans[0].attributes.push({ key: 'e2e.padding', value: { stringValue: 'x'.repeat(12 * 1024 * 1024) } });
    const sent = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body: JSON.stringify(parsed) });
    expect(sent.status, sent.text.slice(0, 300)).toBe(200);
    await expect
      .poll(async () => {
        const list = (await (await request.get('/api/traces', { headers: AUTH })).json()) as TraceList;
        return list.traces.find((trace) => trace.traceId === traceId)?.spanCount;
      })
      .toBe(1);
  });

  test('bodies nested 10,000 levels deep get 400 naming the depth: OTLP export, API body, imported file', async ({ request }) => {
    const limit = `the limit is ${MAX_JSON_DEPTH}.`;
    const otlp = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body: otlpBodyText({ valueText: deepKvlistValueText(10_000) }) });
    expect(otlp.status, otlp.text.slice(0, 300)).toBe(400);
    // The OTLP receiver answers in the OTLP spec's google.rpc.Status shape.
    expect(JSON.parse(otlp.text)).toEqual({ code: 3, message: `The export body is nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 40_000} levels deep; ${limit}` });

    const headers = { ...AUTH, 'content-type': 'application/json' };
    const body = await request.post('/api/traces/import', { headers, data: `{"fileName":"x.json","text":"x","extra":${deepArrayText(10_000)}}` });
    expect(body.status()).toBe(400);
    expect(((await body.json()) as { error: { message: string } }).error.message).toBe(`The body is nested 10001 levels deep; ${limit}`);

    const file = await request.post('/api/traces/import', { headers, data: { fileName: 'deep.json', text: otlpBodyText({ valueText: deepKvlistValueText(10_000) }) } });
    expect(file.status()).toBe(400);
    expect(((await file.json()) as { error: { message: string } }).error.message).toBe(`deep.json: nested ${OTLP_ATTRIBUTE_VALUE_DEPTH + 40_000} levels deep; ${limit}`);
  });

  test('an OTLP body over 32 MiB gets 413, every time (the server drains the refused body before it closes)', async () => {
    const big = Buffer.alloc(33 * 1024 * 1024, 0x20);
    big.write('{"resourceSpans":[', 0);
    // Without the lingering close, about half of these lost the 413 to a reset (EPIPE).
    for (let attempt = 0; attempt < 10; attempt++) {
      const sent = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json', 'content-length': String(big.byteLength) }, body: big });
      expect(sent.status, `attempt ${attempt + 1}: ${sent.text.slice(0, 300)}`).toBe(413);
    }
  });
});
