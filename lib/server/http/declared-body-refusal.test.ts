import { describe, expect, it } from 'vitest';
import { API_MAX_BODY_BYTES, bodyLimitFor, IMPORT_MAX_BODY_BYTES, OTLP_MAX_BODY_BYTES } from './body-limits';
import { declaredBodyRefusal } from './declared-body-refusal';

describe('bodyLimitFor', () => {
  it('names the receiver, the import route and everything else', () => {
    expect(bodyLimitFor({ method: 'POST', pathname: '/v1/traces' })).toEqual({ maxBytes: OTLP_MAX_BODY_BYTES, errorShape: 'otlp' });
    expect(bodyLimitFor({ method: 'POST', pathname: '/api/traces/import' })).toEqual({ maxBytes: IMPORT_MAX_BODY_BYTES, errorShape: 'api' });
    expect(bodyLimitFor({ method: 'POST', pathname: '/api/runs' })).toEqual({ maxBytes: API_MAX_BODY_BYTES, errorShape: 'api' });
    expect(bodyLimitFor({ method: 'GET', pathname: '/' })).toEqual({ maxBytes: API_MAX_BODY_BYTES, errorShape: 'api' });
  });

  it("gives genkit's telemetry doors (an attached app's spans) the OTLP door's limit, POST only", () => {
    for (const pathname of ['/genkit/api/traces', '/genkit/api/otlp', '/api/traces', '/api/otlp']) {
      expect(bodyLimitFor({ method: 'POST', pathname }), pathname).toEqual({ maxBytes: OTLP_MAX_BODY_BYTES, errorShape: 'otlp' });
    }
    // GET /api/traces is Loopscope's trace list: an /api route like any other.
    expect(bodyLimitFor({ method: 'GET', pathname: '/api/traces' })).toEqual({ maxBytes: API_MAX_BODY_BYTES, errorShape: 'api' });
  });

  it('keeps the limits the routes had', () => {
    expect(API_MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(OTLP_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
    expect(IMPORT_MAX_BODY_BYTES).toBe(OTLP_MAX_BODY_BYTES);
  });
});

describe('declaredBodyRefusal', () => {
  it('lets requests without a length, at the limit, or with an unparsable length through', () => {
    expect(declaredBodyRefusal({ method: 'POST', url: '/api/runs', contentLength: undefined })).toBeNull();
    expect(declaredBodyRefusal({ method: 'POST', url: '/api/runs', contentLength: String(API_MAX_BODY_BYTES) })).toBeNull();
    expect(declaredBodyRefusal({ method: 'POST', url: '/v1/traces', contentLength: String(OTLP_MAX_BODY_BYTES) })).toBeNull();
    expect(declaredBodyRefusal({ method: 'POST', url: '/api/runs', contentLength: 'abc' })).toBeNull();
  });

  it("refuses one byte over with the route's error shape and closes the connection", () => {
    const otlp = declaredBodyRefusal({ method: 'POST', url: '/v1/traces?x=1', contentLength: String(OTLP_MAX_BODY_BYTES + 1) });
    expect(otlp).toMatchObject({ status: 413, headers: { connection: 'close', 'content-type': 'application/json' } });
    expect(JSON.parse(otlp?.body ?? '')).toEqual({ code: 8, message: expect.stringContaining(String(OTLP_MAX_BODY_BYTES)) });
    const api = declaredBodyRefusal({ method: 'POST', url: '/api/runs', contentLength: String(API_MAX_BODY_BYTES + 1) });
    expect(JSON.parse(api?.body ?? '')).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('/api/runs') } });
  });
});
