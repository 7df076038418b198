import { createHash, timingSafeEqual } from 'node:crypto';

export interface GuardRequest {
  method: string;
  pathname: string;
  host: string | null;
  origin: string | null;
  authorization: string | null;
  /** `?token=` — accepted only on the event stream, which EventSource opens without headers. */
  queryToken: string | null;
}

export interface GuardConfig {
  port: number;
  token: string;
  /** A non-loopback name the server was deliberately bound to (--dangerously-expose-to-network). */
  extraHost?: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values this server answers to: loopback names with our port (DNS-rebinding guard). */
export function allowedHosts(port: number): string[] {
  return LOOPBACK_NAMES.map((name) => `${name}:${port}`);
}

/** Constant-time comparison; digests first because timingSafeEqual throws on unequal lengths. */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

function bearer(authorization: string | null): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match ? match[1].trim() : null;
}

/**
 * The security model of ARCHITECTURE.md for one request: Host allow-list, Origin check,
 * token on every API route, and the OTLP receiver's no-token rule for non-browser exporters.
 */
export function guardRequest(request: GuardRequest, config: GuardConfig): GuardVerdict {
  const hosts = allowedHosts(config.port);
  if (config.extraHost) hosts.push(`${config.extraHost.toLowerCase()}:${config.port}`);
  const host = (request.host ?? '').toLowerCase();
  if (!hosts.includes(host)) {
    return { ok: false, status: 403, message: `Host "${request.host ?? ''}" is not allowed: Loopscope answers only to ${hosts.join(', ')}.` };
  }
  if (request.origin !== null) {
    const origins = hosts.map((allowed) => `http://${allowed}`);
    if (!origins.includes(request.origin.toLowerCase())) {
      return { ok: false, status: 403, message: `Origin "${request.origin}" is not allowed: requests must come from Loopscope's own page.` };
    }
  }

  const isApi = request.pathname === '/api' || request.pathname.startsWith('/api/');
  const isReceiver = request.pathname === '/v1/traces';
  if (!isApi && !isReceiver) return { ok: true };

  const headerToken = bearer(request.authorization);
  const isEventStream = request.method === 'GET' && request.pathname === '/api/events';
  const given = headerToken ?? (isEventStream ? request.queryToken : null);

  if (isReceiver && given === null && request.origin === null) {
    // An exporter in another app sends no token. A browser always sends Origin on a
    // cross-origin POST and cannot remove it, so a page cannot use this door.
    return { ok: true };
  }
  if (given === null) return { ok: false, status: 401, message: 'This route needs the Loopscope token (Authorization: Bearer <token>).' };
  if (!tokensMatch(given, config.token)) return { ok: false, status: 401, message: 'The Loopscope token is wrong.' };
  return { ok: true };
}
