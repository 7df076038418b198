import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readNodeBody } from './read-node-body';

/** What the server's read of one request came to. */
type Outcome = { body?: string; error?: { code?: string; message: string } };

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that reads each request's body with `readNodeBody` and hands each outcome to `next`. */
async function bodyServer(maxBytes: number): Promise<{ port: number; next: () => Promise<Outcome> }> {
  const outcomes: ((outcome: Outcome) => void)[] = [];
  const queued: Outcome[] = [];
  const deliver = (outcome: Outcome) => {
    const waiting = outcomes.shift();
    if (waiting) waiting(outcome);
    else queued.push(outcome);
  };
  server = http.createServer((request, response) => {
    readNodeBody(request, maxBytes).then(
      (bytes) => {
        deliver({ body: Buffer.from(bytes).toString('utf8') });
        response.end('ok');
      },
      (error: { code?: string; message: string }) => {
        deliver({ error: { code: error.code, message: error.message } });
        response.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  const next = () => (queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise<Outcome>((resolve) => outcomes.push(resolve)));
  return { port, next };
}

describe('readNodeBody', () => {
  it('reads a whole body, and a client that goes away mid-body is refused, its half body never handed on', async () => {
    const { port, next } = await bodyServer(1024);
    const whole = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'a whole body' });
    expect(await whole.text()).toBe('ok');
    expect(await next()).toEqual({ body: 'a whole body' });

    // Half of a declared body, then the socket closes.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf of it');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    // Node says `aborted` (ECONNRESET) first; the close's own error stands in where no error came.
    const cut = await next();
    expect(cut.body).toBeUndefined();
    expect(cut.error?.code).toMatch(/^(ECONNRESET|INVALID_ARGUMENT)$/);
  });

  it('refuses a body past the limit', async () => {
    const { port, next } = await bodyServer(8);
    await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'longer than eight bytes' }).catch(() => undefined);
    expect(await next()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The body passed the limit of 8 bytes.' } });
  });
});
