import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import { TOKEN, startSecondServer, stopSecondServers } from './helpers';

/**
 * Live events with backpressure, against the real server (issue 15, item 3): 20 subscribers that
 * never read and one that does, 50 MB of spans sent. The server's memory stays within the
 * subscribers' bounds (not 20 × 50 MB) and the reading subscriber gets every span event. (A
 * subscriber that never reads keeps its connection: the server cut its stream and freed its
 * queue, lib/server/live/event-stream.ts, but the socket is the client's to close.)
 */
test.afterEach(stopSecondServers);

const hex = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const rssMb = (pid: number) => Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;

function subscribe(port: number, options: { read: boolean }): { socket: net.Socket; text: () => string } {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('connect', () => socket.write(`GET /api/events?all=1&token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    // A page that stopped reading: it takes the answer's first bytes, then nothing more.
    if (!options.read) socket.pause();
  });
  socket.on('error', () => undefined);
  return { socket, text: () => text };
}

test('live events: 20 subscribers that never read, 50 MB of spans — the server stays bounded, the reader gets every event', async () => {
  test.setTimeout(180_000);
  const server = await startSecondServer();
  const reader = subscribe(server.port, { read: true });
  const idle = Array.from({ length: 20 }, () => subscribe(server.port, { read: false }));
  await expect.poll(() => reader.text().includes('event: ready')).toBe(true);
  const before = rssMb(server.pid);
  for (let batch = 0; batch < 100; batch += 1) {
    const traceId = hex(32);
    const spans = Array.from({ length: 5 }, () => ({ traceId, spanId: hex(16), name: 'big', kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000', attributes: [{ key: 'blob', value: { stringValue: 'x'.repeat(100_000) } }], status: { code: 1 } }));
    const answer = await fetch(`${server.baseUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'e2e' }, spans }] }] }) });
    expect(answer.status).toBe(200);
  }
  await expect.poll(() => (reader.text().match(/\nevent: spans\n/g) ?? []).length, { timeout: 30_000 }).toBe(100);
  const grown = rssMb(server.pid) - before;
  console.log(`live-backpressure: server RSS ${before.toFixed(0)} MB → +${grown.toFixed(0)} MB after 50 MB of spans with 20 idle subscribers`);
  // Unbounded, the 20 idle queues would hold 20 × 50 MB; bounded, at most 20 × 8 MiB.
  expect(grown).toBeLessThan(400);
  // The idle ones got the first bytes of their stream and nothing past their bound.
  for (const subscriber of idle) expect(subscriber.text().length).toBeLessThan(64 * 1024);
  reader.socket.destroy();
  for (const subscriber of idle) subscriber.socket.destroy();
});
