/**
 * The request a web page makes once DNS rebinding pointed its own name at 127.0.0.1 (issue 36):
 * a page loaded from `http://evil.example:<port>` whose name now resolves to 127.0.0.1 posts to
 * its own origin, so the browser sends `Host: evil.example:<port>` and `Origin:
 * http://evil.example:<port>` — same-origin for the browser, no CORS preflight — to whatever
 * listens on 127.0.0.1:<port>. Sent with node:http, since fetch cannot set Host.
 */
import http from 'node:http';

export const REBINDING_NAME = 'evil.example';

export type RebindingAnswer = { status: number; body: string } | { error: string };

/** The loopback address to reach a socket bound to `address` (a wildcard bind is reached on loopback too). */
export function loopbackFor(address: string): string {
  return address.includes(':') ? '::1' : '127.0.0.1';
}

/**
 * POSTs genkit's `/api/runAction {key, input}` to `port` on loopback as a rebinding page would;
 * `address` is where the socket is bound (listening-ports.ts), reached through its family's loopback.
 */
export function rebindingRunAction(options: { port: number; key: string; input: unknown; address?: string }): Promise<RebindingAnswer> {
  const body = JSON.stringify({ key: options.key, input: options.input });
  const host = `${REBINDING_NAME}:${options.port}`;
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: loopbackFor(options.address ?? '127.0.0.1'),
        port: options.port,
        method: 'POST',
        path: '/api/runAction',
        headers: { host, origin: `http://${host}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(body);
  });
}

/** True when the answer ran nothing: no connection, or a status other than 2xx, or a body without genkit's `result`. */
export function refused(answer: RebindingAnswer): boolean {
  if ('error' in answer) return true;
  if (answer.status < 200 || answer.status >= 300) return true;
  try {
    const parsed = JSON.parse(answer.body) as { result?: unknown };
    return parsed.result === undefined;
  } catch {
    return true;
  }
}
