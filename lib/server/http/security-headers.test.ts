import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, createNonce, securityHeaders } from './security-headers';

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('contentSecurityPolicy', () => {
  it('lets scripts run only with the nonce, never inline or from data', () => {
    const policy = directives(contentSecurityPolicy('abc123'));
    // No allowance at all: no inline script, no eval (schemas from traces are compiled on the server).
    expect(policy.get('script-src')).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    for (const values of policy.values()) {
      expect(values).not.toContain("'unsafe-inline'");
      expect(values).not.toContain("'unsafe-hashes'");
      expect(values).not.toContain('data:');
      expect(values).not.toContain('*');
    }
  });

  it('forbids framing, plugins, base rewriting and foreign form targets', () => {
    const policy = directives(contentSecurityPolicy('abc123'));
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'nonce-abc123'"]);
  });

  it("allows no script at all without a nonce (the server's own error answers)", () => {
    expect(directives(contentSecurityPolicy()).get('script-src')).toEqual(["'none'"]);
    expect(directives(contentSecurityPolicy()).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('securityHeaders', () => {
  it('adds X-Frame-Options, nosniff and no-referrer to the CSP', () => {
    expect(securityHeaders('n')).toEqual({
      'Content-Security-Policy': contentSecurityPolicy('n'),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });
});

describe('createNonce', () => {
  it('makes a fresh base64 value each time', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});
