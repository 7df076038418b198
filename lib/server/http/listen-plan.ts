import { LoopscopeError } from '../../errors';

/** Where the HTTP server listens. */
export interface ListenPlan {
  /** Addresses that must be bound, or the server does not start. */
  required: string[];
  /** Addresses bound when the machine has them (IPv6 loopback); a failure is reported, not fatal. */
  optional: string[];
  /** A non-loopback name the Host check must accept (--dangerously-expose-to-network). */
  extraHost?: string;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Which addresses to bind for `--host`. A loopback host binds both loopback addresses:
 * an exporter whose `localhost` resolves to ::1 (Node ≥ 17 keeps the resolver's order)
 * must not get ECONNREFUSED, which crashes genkit's exporter in the app. 127.0.0.1 is the
 * one required: the runner exports there. Any other host needs the dangerous flag, and
 * loopback stays bound next to it unless the host is a wildcard that covers it.
 */
export function planListen(options: { host: string; dangerouslyExposeToNetwork: boolean }): ListenPlan {
  const host = options.host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (LOOPBACK_NAMES.has(host)) return { required: ['127.0.0.1'], optional: ['::1'] };
  if (!options.dangerouslyExposeToNetwork) {
    throw new LoopscopeError(
      'INVALID_ARGUMENT',
      `refusing to listen on ${options.host}: Loopscope runs local code from a web page and binds loopback only.\n` +
        'Add --dangerously-expose-to-network if you really mean to let other machines reach it.',
    );
  }
  // The Host header names an IPv6 address in brackets.
  const extraHost = host.includes(':') ? `[${host}]` : host;
  if (host === '::') return { required: ['::'], optional: [], extraHost };
  if (host === '0.0.0.0') return { required: ['0.0.0.0'], optional: ['::1'], extraHost };
  return { required: [host, '127.0.0.1'], optional: ['::1'], extraHost };
}
