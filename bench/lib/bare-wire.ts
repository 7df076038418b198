/**
 * The wire alone, for bench/capture-overhead.bench.ts: the hops a Loopscope run takes with no work in
 * them. A node:http server answers `POST /api/runs` and sends the run's command to a child
 * process over IPC (node's `advanced` serialization, as the server talks to its runners); the
 * child answers at once, and the server tells the event stream's subscribers the run finished,
 * in the same `run` event shape as Loopscope's `/api/events`. So the bench's own client (the
 * same `postJson` and `watchRuns`) measures what the client → server → runner → server →
 * client path costs on this machine before Loopscope does anything on it: the part of the
 * path's floor that no code of Loopscope's can take away.
 *
 * Run as the server: `node --import tsx bench/lib/bare-wire.ts` with PORT; it prints `listening`.
 * It forks itself as the runner (BARE_WIRE_ROLE=runner).
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

interface RunCommand {
  type: 'generate';
  runId: string;
}
interface RunResult {
  type: 'generate-result';
  runId: string;
}

function runner(): void {
  process.on('message', (message: RunCommand) => process.send?.({ type: 'generate-result', runId: message.runId } satisfies RunResult));
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready' });
}

async function server(port: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BARE_WIRE_ROLE: 'runner' },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const subscribers = new Set<http.ServerResponse>();
  child.on('message', (message: RunResult) => {
    const event = `event: run\ndata: ${JSON.stringify({ run: { runId: message.runId, status: 'finished' } })}\n\n`;
    for (const subscriber of subscribers) subscriber.write(event);
  });
  let runs = 0;
  const httpServer = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url?.startsWith('/api/events')) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write('event: ready\ndata: {}\n\n');
      subscribers.add(response);
      request.on('close', () => subscribers.delete(response));
      return;
    }
    if (request.method === 'POST' && request.url === '/api/runs') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const runId = `wire-${++runs}`;
        child.send({ type: 'generate', runId } satisfies RunCommand);
        const body = JSON.stringify({ run: { runId, status: 'running' } });
        response.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      });
      return;
    }
    response.writeHead(404).end();
  });
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(port, '127.0.0.1', () => console.log('listening'));
  process.on('SIGTERM', () => {
    child.kill();
    process.exit(0);
  });
}

if (process.env.BARE_WIRE_ROLE === 'runner') runner();
else await server(Number(process.env.PORT));
