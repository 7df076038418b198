import { describe, expect, it } from 'vitest';
import { sessionCookieName, sessionCookieValue, sessionSetCookieHeader } from './session-cookie';

const TOKEN = 'per-launch-token-0123456789';

describe('session cookie', () => {
  it('is named after the port, so two servers on one machine keep their own', () => {
    expect(sessionCookieName(4747)).toBe('loopscope_session_4747');
    expect(sessionCookieName(4801)).not.toBe(sessionCookieName(4747));
  });

  it('holds an HMAC of the token, never the token, and changes with the token', () => {
    const value = sessionCookieValue(TOKEN);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toContain(TOKEN);
    expect(sessionCookieValue(TOKEN)).toBe(value);
    expect(sessionCookieValue(`${TOKEN}x`)).not.toBe(value);
  });

  it('is HttpOnly, SameSite=Strict, for the whole site, and ends with the browser session', () => {
    const header = sessionSetCookieHeader({ port: 4747, token: TOKEN });
    expect(header).toBe(`loopscope_session_4747=${sessionCookieValue(TOKEN)}; HttpOnly; SameSite=Strict; Path=/`);
    expect(header).not.toMatch(/Max-Age|Expires/i);
  });
});
