/** The server side every capture benchmark shares: start a production server, watch its runs, wait for its runners. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * A benchmark's child process (node with `args`, in this folder, stdout piped): resolves once its
 * output says `ready`, rejects naming it (`name`) if it exits before.
 */
export async function spawnReady({ name, args, env, ready }: { name: string; args: string[]; env: NodeJS.ProcessEnv; ready: string }): Promise<ChildProcessByStdio<null, Readable, null>> {
  const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(ready)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return child;
}

/** A production Loopscope server for a benchmark: its own port, token, data folder and tools folder. Resolves once it listens. */
export async function startBenchServer({ port, token, dataDir, toolsDir }: { port: number; token: string; dataDir: string; toolsDir: string }) {
  const profile = process.env.BENCH_SERVER_PROF;
  return spawnReady({
    name: 'server',
    args: [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), 'scripts/start.js'],
    env: { ...process.env, ...(profile ? { LOOPSCOPE_RUNNER_CPU_PROF: profile } : {}), PORT: String(port), LOOPSCOPE_TOKEN: token, LOOPSCOPE_DATA_DIR: dataDir, LOOPSCOPE_TOOLS_DIR: toolsDir, LOOPSCOPE_TRACES_DIR: path.join(dataDir, 'saved') },
    ready: 'Loopscope is running',
  });
}

/** Genkit's own telemetry server, the Dev UI's (bench/lib/genkit-telemetry-server.ts), in its own process on `port`, storing under `storeRoot`. Resolves once it answers. */
export async function startGenkitTelemetryServer({ port, storeRoot }: { port: number; storeRoot: string }) {
  return spawnReady({
    name: "genkit's telemetry server",
    args: ['--import', 'tsx', path.join('bench', 'lib', 'genkit-telemetry-server.ts')],
    env: { ...process.env, BENCH_GENKIT_PORT: String(port), BENCH_GENKIT_DIR: storeRoot },
    ready: 'genkit telemetry server ready',
  });
}

/**
 * The benchmarks' HTTP client: node:http on a keep-alive agent, not fetch, so less of the
 * client's own time is billed to Loopscope. Measured here (2026-12-02, time stamps on both sides
 * of the wire, bench/capture-overhead.bench.ts, two runs of each): from the call to the server's first
 * look at a `POST /api/runs`, fetch 1.79–2.18 ms and node:http 1.06–1.60 ms (medians); from the
 * server's write of a run's `finished` event to the watcher's handler, fetch 0.72 ms and
 * node:http 0.54 ms. BENCH_CLIENT=fetch measures with fetch, as before.
 */
const useFetch = process.env.BENCH_CLIENT === 'fetch';
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One POST's status and body text, through node:http (or fetch with BENCH_CLIENT=fetch). */
async function post({ port, path: requestPath, headers, text }: { port: number; path: string; headers: Record<string, string>; text: string }): Promise<{ status: number; body: string }> {
  if (useFetch) {
    const response = await fetch(`http://127.0.0.1:${port}${requestPath}`, { method: 'POST', headers, body: text });
    return { status: response.status, body: await response.text() };
  }
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: requestPath, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(text) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(text);
  });
}

/** POSTs JSON to the bench server and answers with the parsed JSON body. @throws naming the path and status for an error status or a body that is not JSON. */
export async function postJson<T>({ port, token, path: requestPath, body }: { port: number; token: string; path: string; body: unknown }): Promise<T> {
  const answer = await post({ port, path: requestPath, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, text: JSON.stringify(body) });
  if (answer.status >= 400) throw new Error(`bench: ${requestPath} answered ${answer.status}: ${answer.body.slice(0, 500)}`);
  try {
    return JSON.parse(answer.body) as T;
  } catch (error) {
    throw new Error(`bench: ${requestPath} answered ${answer.status} with no JSON: ${(error as Error).message}`);
  }
}

/** The event stream's body as text chunks, through node:http (or fetch with BENCH_CLIENT=fetch). */
async function* eventStreamChunks({ port, token, signal }: { port: number; token: string; signal: AbortSignal }): AsyncGenerator<string> {
  const url = `http://127.0.0.1:${port}/api/events?token=${token}`;
  if (useFetch) {
    const response = await fetch(url, { signal });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield decoder.decode(chunk, { stream: true });
    return;
  }
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, { signal }, resolve).on('error', reject));
  response.setEncoding('utf8');
  for await (const chunk of response) yield chunk as string;
}

/**
 * Waits for the 'run' events of the event stream (the home page's filter: runs, no spans).
 * `whenFinished` resolves on the event itself: a poll loop (`setImmediate` until the map has
 * the run) keeps a core busy for the whole run, on this 2-core machine the runner's or the
 * server's, and made every captured run look slower than it is.
 */
export function watchRuns({ port, token }: { port: number; token: string }): {
  finished: Map<string, string>;
  whenFinished: (runId: string) => Promise<string>;
  ready: Promise<void>;
  close: () => void;
} {
  const finished = new Map<string, string>();
  const waiters = new Map<string, (status: string) => void>();
  const whenFinished = (runId: string) => {
    const status = finished.get(runId);
    return status !== undefined ? Promise.resolve(status) : new Promise<string>((resolve) => waiters.set(runId, resolve));
  };
  const controller = new AbortController();
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  void (async () => {
    let buffer = '';
    for await (const chunk of eventStreamChunks({ port, token, signal: controller.signal })) {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith('event: ready')) markReady();
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (block.startsWith('event: run\n') && data) {
          const { run } = JSON.parse(data) as { run: { runId: string; status: string } };
          if (run.status !== 'running') {
            finished.set(run.runId, run.status);
            waiters.get(run.runId)?.(run.status);
            waiters.delete(run.runId);
          }
        }
      }
    }
  })().catch((error: unknown) => {
    // Closing aborts the stream: fetch says AbortError, node:http's response says "aborted".
    if (!controller.signal.aborted) console.error('bench: event stream failed:', error);
  });
  return { finished, whenFinished, ready, close: () => controller.abort() };
}

/**
 * Waits until the server's runners are up and none is still starting: the capture cost per
 * turn is measured in steady state, not while the pool's warm spare spends its cold start
 * (a one-time cost at launch) on the same two cores.
 */
export async function runnersSettled({ port, token }: { port: number; token: string }): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(`http://127.0.0.1:${port}/api/runner`, { headers: { authorization: `Bearer ${token}` } });
    const { runner } = (await answer.json()) as { runner: { state: string; runners?: { state: string }[] } };
    const starting = (runner.runners ?? []).some((process) => process.state === 'starting');
    if (runner.state === 'ready' && !starting) return;
    if (Date.now() > deadline) throw new Error('bench: the runners did not settle within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
