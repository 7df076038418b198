import { describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../errors';
import { planListen } from './listen-plan';

describe('planListen', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '[::1]', 'LOCALHOST'])('binds both loopback addresses for %s (127.0.0.1 required: the runner exports there)', (host) => {
    expect(planListen({ host, dangerouslyExposeToNetwork: false })).toEqual({ required: ['127.0.0.1'], optional: ['::1'] });
  });

  it('refuses a non-loopback host without the dangerous flag, saying how to allow it', () => {
    let thrown: unknown;
    try {
      planListen({ host: '0.0.0.0', dangerouslyExposeToNetwork: false });
    } catch (error) {
      thrown = error;
    }
    expect(LoopscopeError.isInstance(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
    expect((thrown as Error).message).toContain('refusing to listen on 0.0.0.0');
    expect((thrown as Error).message).toContain('--dangerously-expose-to-network');
  });

  it('with the flag, binds the host and keeps loopback bound next to it', () => {
    expect(planListen({ host: '192.168.1.20', dangerouslyExposeToNetwork: true })).toEqual({ required: ['192.168.1.20', '127.0.0.1'], optional: ['::1'], extraHost: '192.168.1.20' });
  });

  it('does not bind 127.0.0.1 again next to a wildcard that covers it (EADDRINUSE)', () => {
    expect(planListen({ host: '0.0.0.0', dangerouslyExposeToNetwork: true })).toEqual({ required: ['0.0.0.0'], optional: ['::1'], extraHost: '0.0.0.0' });
    expect(planListen({ host: '::', dangerouslyExposeToNetwork: true })).toEqual({ required: ['::'], optional: [], extraHost: '[::]' });
  });

  it('brackets an IPv6 host for the Host check', () => {
    expect(planListen({ host: 'fd00::2', dangerouslyExposeToNetwork: true }).extraHost).toBe('[fd00::2]');
  });
});
