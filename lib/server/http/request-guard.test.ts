import { describe, expect, it } from 'vitest';
import { allowedHosts, bearerToken, guardRequest, tokensMatch, type GuardRequest } from './request-guard';
import { sessionCookieValue } from './session-cookie';

const PORT = 4317;
const TOKEN = 'per-launch-token-0123456789';
const config = { port: PORT, token: TOKEN };

function request(patch: Partial<GuardRequest> = {}): GuardRequest {
  return {
    method: 'GET',
    pathname: '/',
    host: `127.0.0.1:${PORT}`,
    origin: null,
    authorization: null,
    queryToken: null,
    sessionCookie: null,
    secFetchSite: null,
    ...patch,
  };
}

const api = (patch: Partial<GuardRequest> = {}) => request({ pathname: '/api/runs', authorization: `Bearer ${TOKEN}`, ...patch });

describe('allowedHosts', () => {
  it('lists the three loopback names with the port', () => {
    expect(allowedHosts(PORT)).toEqual([`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`]);
  });
});

describe('tokensMatch', () => {
  it('matches equal tokens only', () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
    expect(tokensMatch(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokensMatch('', TOKEN)).toBe(false);
    expect(tokensMatch(TOKEN.toUpperCase(), TOKEN)).toBe(false);
  });

  it('never matches an empty expected token', () => {
    expect(tokensMatch('', '')).toBe(false);
  });
});

describe('guardRequest: Host', () => {
  it.each([`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`, `LocalHost:${PORT}`])('accepts %s', (host) => {
    expect(guardRequest(request({ host }), config)).toEqual({ ok: true });
  });

  it.each([
    ['a wrong port', `127.0.0.1:${PORT + 1}`],
    ['no port', '127.0.0.1'],
    ['a foreign name', `evil.example:${PORT}`],
    ['a loopback-looking prefix', `127.0.0.1.evil.example:${PORT}`],
    ['a suffix attack', `evil.example.localhost:${PORT}`],
    ['an empty host', ''],
  ])('refuses %s with 403', (_what, host) => {
    const verdict = guardRequest(request({ host }), config);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.status).toBe(403);
      expect(verdict.message).toContain('is not allowed');
    }
  });

  it('refuses a missing Host with 403, even on a page', () => {
    const verdict = guardRequest(request({ host: null }), config);
    expect(verdict).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses a bad Host before looking at the token (a valid token does not help)', () => {
    expect(guardRequest(api({ host: `evil.example:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('guardRequest: Origin', () => {
  it.each([`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, `http://[::1]:${PORT}`, `HTTP://LOCALHOST:${PORT}`])(
    'accepts our own origin %s',
    (origin) => {
      expect(guardRequest(api({ origin, method: 'POST' }), config)).toEqual({ ok: true });
    },
  );

  it.each([
    ['a foreign origin', 'http://evil.example'],
    ['the null origin', 'null'],
    ['the https variant', `https://127.0.0.1:${PORT}`],
    ['another port', `http://127.0.0.1:${PORT + 1}`],
    ['an origin with a path', `http://127.0.0.1:${PORT}/x`],
    ['an empty origin', ''],
  ])('refuses %s with 403', (_what, origin) => {
    const verdict = guardRequest(api({ origin, method: 'POST' }), config);
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    if (!verdict.ok) expect(verdict.message).toContain('Origin');
  });

  it('refuses a foreign origin on a page too', () => {
    expect(guardRequest(request({ origin: 'http://evil.example' }), config)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('guardRequest: token on API routes', () => {
  it('needs the token on /api/*: missing is 401', () => {
    const verdict = guardRequest(api({ authorization: null }), config);
    expect(verdict).toMatchObject({ ok: false, status: 401 });
    if (!verdict.ok) expect(verdict.message).toContain('token');
  });

  it('needs the token on /api itself', () => {
    expect(guardRequest(request({ pathname: '/api' }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a wrong token with 401', () => {
    const verdict = guardRequest(api({ authorization: 'Bearer nope' }), config);
    expect(verdict).toMatchObject({ ok: false, status: 401 });
    if (!verdict.ok) expect(verdict.message).toContain('wrong');
  });

  it('refuses an empty bearer and a non-bearer scheme', () => {
    expect(guardRequest(api({ authorization: 'Bearer ' }), config)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(api({ authorization: 'Bearer    ' }), config)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(api({ authorization: `Basic ${TOKEN}` }), config)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(api({ authorization: TOKEN }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('accepts the right token, with Bearer in any case', () => {
    expect(guardRequest(api(), config)).toEqual({ ok: true });
    expect(guardRequest(api({ authorization: `bearer ${TOKEN}` }), config)).toEqual({ ok: true });
    expect(guardRequest(api({ authorization: `BEARER ${TOKEN}` }), config)).toEqual({ ok: true });
  });

  it('does not treat /apiary as an API route', () => {
    expect(guardRequest(request({ pathname: '/apiary' }), config)).toEqual({ ok: true });
  });

  it('pages need no token', () => {
    expect(guardRequest(request({ pathname: '/' }), config)).toEqual({ ok: true });
    expect(guardRequest(request({ pathname: '/runs/abc' }), config)).toEqual({ ok: true });
  });
});

describe('guardRequest: ?token= only on GET /api/events', () => {
  it('accepts the query token on GET /api/events', () => {
    expect(guardRequest(request({ pathname: '/api/events', queryToken: TOKEN }), config)).toEqual({ ok: true });
  });

  it('refuses a wrong query token on GET /api/events', () => {
    expect(guardRequest(request({ pathname: '/api/events', queryToken: 'nope' }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('ignores the query token on other routes', () => {
    expect(guardRequest(request({ pathname: '/api/runs', queryToken: TOKEN }), config)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(request({ pathname: '/api/events/x', queryToken: TOKEN }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('ignores the query token on POST /api/events', () => {
    expect(guardRequest(request({ method: 'POST', pathname: '/api/events', queryToken: TOKEN }), config)).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('ignores the query token on the OTLP receiver when an Origin is present', () => {
    const verdict = guardRequest(
      request({ method: 'POST', pathname: '/v1/traces', origin: `http://127.0.0.1:${PORT}`, queryToken: TOKEN }),
      config,
    );
    expect(verdict).toMatchObject({ ok: false, status: 401 });
  });
});

describe('guardRequest: the OTLP receiver', () => {
  const receiver = (patch: Partial<GuardRequest> = {}) => request({ method: 'POST', pathname: '/v1/traces', ...patch });

  it('lets an exporter without token and without Origin in', () => {
    expect(guardRequest(receiver(), config)).toEqual({ ok: true });
  });

  it('needs the token when an Origin is present (a browser)', () => {
    expect(guardRequest(receiver({ origin: `http://localhost:${PORT}` }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('accepts the token with an Origin', () => {
    expect(guardRequest(receiver({ origin: `http://localhost:${PORT}`, authorization: `Bearer ${TOKEN}` }), config)).toEqual({ ok: true });
  });

  it('refuses a wrong token even without Origin (a token sent is a token checked)', () => {
    expect(guardRequest(receiver({ authorization: 'Bearer wrong' }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('still checks the Host for exporters', () => {
    expect(guardRequest(receiver({ host: `evil.example:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it('genkit Python posts TraceData to /api/traces (urljoin drops the /genkit prefix): a POST there is a receiver, a GET is still the token-guarded list', () => {
    expect(guardRequest(receiver({ pathname: '/api/traces' }), config)).toEqual({ ok: true });
    expect(guardRequest(receiver({ pathname: '/api/otlp' }), config)).toEqual({ ok: true });
    expect(guardRequest(receiver({ pathname: '/api/traces', origin: `http://localhost:${PORT}` }), config)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(request({ method: 'GET', pathname: '/api/traces' }), config)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('guardRequest: extraHost', () => {
  const exposed = { ...config, extraHost: 'My-Box.lan' };

  it('accepts the extra host (case-insensitive) with our port, plus the loopback names', () => {
    expect(guardRequest(request({ host: `my-box.lan:${PORT}` }), exposed)).toEqual({ ok: true });
    expect(guardRequest(request({ host: `MY-BOX.LAN:${PORT}` }), exposed)).toEqual({ ok: true });
    expect(guardRequest(request({ host: `localhost:${PORT}` }), exposed)).toEqual({ ok: true });
  });

  it('accepts the extra host as an origin', () => {
    expect(guardRequest(api({ host: `my-box.lan:${PORT}`, origin: `http://my-box.lan:${PORT}` }), exposed)).toEqual({ ok: true });
  });

  it('refuses the extra host on another port, and refuses it when not configured', () => {
    expect(guardRequest(request({ host: `my-box.lan:${PORT + 1}` }), exposed)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(request({ host: `my-box.lan:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it('does not remember the extra host across calls (the allow-list is rebuilt per request)', () => {
    guardRequest(request({ host: `my-box.lan:${PORT}` }), exposed);
    expect(allowedHosts(PORT)).toHaveLength(3);
    expect(guardRequest(request({ host: `my-box.lan:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it('still needs the token on the API through the extra host', () => {
    expect(guardRequest(request({ host: `my-box.lan:${PORT}`, pathname: '/api/runs' }), exposed)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, and nothing else', () => {
    expect(bearerToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerToken(`bearer  ${TOKEN} `)).toBe(TOKEN);
    expect(bearerToken(`Basic ${TOKEN}`)).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});

describe("guardRequest: the page's session cookie", () => {
  const COOKIE = sessionCookieValue(TOKEN);
  const OWN_ORIGIN = `http://127.0.0.1:${PORT}`;
  /** What Chromium sends for the page's own fetch: the cookie, Sec-Fetch-Site, and Origin on a POST. */
  const fromPage = (patch: Partial<GuardRequest> = {}) => request({ pathname: '/api/runs', sessionCookie: COOKIE, secFetchSite: 'same-origin', ...patch });

  it('accepts the cookie on a same-origin GET (no Origin: a same-origin GET and EventSource send none)', () => {
    expect(guardRequest(fromPage(), config)).toEqual({ ok: true });
    expect(guardRequest(fromPage({ pathname: '/api/events' }), config)).toEqual({ ok: true });
    expect(guardRequest(fromPage({ secFetchSite: 'SAME-ORIGIN' }), config)).toEqual({ ok: true });
  });

  it('accepts the cookie on a same-origin POST with our Origin', () => {
    expect(guardRequest(fromPage({ method: 'POST', origin: OWN_ORIGIN }), config)).toEqual({ ok: true });
  });

  it('refuses a POST with the cookie but no Origin (a state change must name its page)', () => {
    const verdict = guardRequest(fromPage({ method: 'POST' }), config);
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    if (!verdict.ok) expect(verdict.message).toContain('Origin');
    expect(guardRequest(fromPage({ method: 'DELETE' }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses a POST with the cookie and a foreign Origin', () => {
    expect(guardRequest(fromPage({ method: 'POST', origin: 'http://127.0.0.1:9999' }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it.each(['cross-site', 'same-site', 'none'])('refuses the cookie with Sec-Fetch-Site: %s (another port of 127.0.0.1 is same-site)', (site) => {
    const verdict = guardRequest(fromPage({ secFetchSite: site }), config);
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    if (!verdict.ok) expect(verdict.message).toContain(`Sec-Fetch-Site: ${site}`);
  });

  it('ignores the cookie of a request without Sec-Fetch-Site (not from a browser page): 401, it needs the token', () => {
    const verdict = guardRequest(fromPage({ secFetchSite: null }), config);
    expect(verdict).toMatchObject({ ok: false, status: 401 });
    if (!verdict.ok) expect(verdict.message).toContain('Sec-Fetch-Site');
  });

  it('refuses a stale cookie (another token: the server restarted) with 401 that says so', () => {
    const verdict = guardRequest(fromPage({ sessionCookie: sessionCookieValue('the-token-of-an-earlier-launch') }), config);
    expect(verdict).toMatchObject({ ok: false, status: 401 });
    if (!verdict.ok) expect(verdict.message).toContain('expired');
    expect(guardRequest(fromPage({ sessionCookie: '' }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('does not take the token itself as a cookie value', () => {
    expect(guardRequest(fromPage({ sessionCookie: TOKEN }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('never matches when the server has no token', () => {
    expect(guardRequest(fromPage({ sessionCookie: sessionCookieValue('') }), { port: PORT, token: '' })).toMatchObject({ ok: false, status: 401 });
  });

  it('checks a bearer token first: a wrong one fails even with a valid cookie', () => {
    expect(guardRequest(fromPage({ authorization: 'Bearer wrong' }), config)).toMatchObject({ ok: false, status: 401 });
  });

  it('still lets scripts in with the bearer token alone, and with ?token= on the event stream', () => {
    expect(guardRequest(api({ method: 'POST' }), config)).toEqual({ ok: true });
    expect(guardRequest(request({ pathname: '/api/events', queryToken: TOKEN }), config)).toEqual({ ok: true });
  });

  it('does not open the OTLP receiver to the cookie (a browser there needs the token)', () => {
    const verdict = guardRequest(fromPage({ method: 'POST', pathname: '/v1/traces', origin: OWN_ORIGIN }), config);
    expect(verdict).toMatchObject({ ok: false, status: 401 });
  });

  it('still checks Host and Origin before the cookie', () => {
    expect(guardRequest(fromPage({ host: `evil.example:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(fromPage({ origin: 'http://evil.example' }), config)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('guardRequest: the step door of attached apps (/attach/step)', () => {
  const door = (patch: Partial<GuardRequest> = {}) => request({ method: 'POST', pathname: '/attach/step/hook', ...patch });

  it('lets a request without Origin through to the route, which checks the run’s step token', () => {
    expect(guardRequest(door(), config)).toEqual({ ok: true });
  });

  it('refuses every request with an Origin, even Loopscope’s own page: no page can reach the door', () => {
    expect(guardRequest(door({ origin: `http://127.0.0.1:${PORT}` }), config)).toMatchObject({ ok: false, status: 403, message: expect.stringContaining('not for a web page') });
    expect(guardRequest(door({ origin: 'http://evil.example' }), config)).toMatchObject({ ok: false, status: 403 });
  });

  it('still checks the Host (DNS rebinding)', () => {
    expect(guardRequest(door({ host: `evil.example:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('guardRequest: the AI SDK app door (/attach/ai-sdk)', () => {
  const door = (patch: Partial<GuardRequest> = {}) => request({ method: 'POST', pathname: '/attach/ai-sdk/start', ...patch });

  it('lets a request without Origin through to the route, which checks the app’s credential', () => {
    expect(guardRequest(door(), config)).toEqual({ ok: true });
  });

  it('refuses every request with an Origin, Loopscope’s own page included, and a rebinding Host', () => {
    expect(guardRequest(door({ origin: `http://127.0.0.1:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(door({ origin: 'http://evil.example', pathname: '/attach/ai-sdk/answer' }), config)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(door({ host: `evil.example:${PORT}` }), config)).toMatchObject({ ok: false, status: 403 });
  });
});
