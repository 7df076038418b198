import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopscopeError } from '../../errors';
import { MAX_JSON_DEPTH } from '../../spans/parse-json-limited';
import { REFLECTION_MAX_ANSWER_BYTES } from '../http/body-limits';
import { listRuntimes } from './attach-service';
import { runReflectionAction } from './reflection-client';
import { RuntimeRegistry } from './runtime-registry';
import { TraceArrivals } from './trace-arrivals';

/**
 * Hostile reflection servers: real HTTP servers on loopback, each answering genkit's reflection
 * API (`/api/__health`, `/api/notify`, `/api/actions`, `/api/values`, `/api/runAction`) as a
 * genkit JS app does, except for one answer — nested 1,000 levels, or larger than any JSON
 * Loopscope reads. Each is found as genkit's CLI finds apps: by its runtime file.
 */
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** `{"a": {"a": … 1}}`, `levels` objects deep. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A genkit reflection action list (genkit JS 1.42's shape) with one flow whose input schema is `inputSchema` (JSON text). */
const actionList = (name: string, inputSchema = '{"type":"string"}') => `{"/flow/${name}":{"key":"/flow/${name}","name":"${name}","inputSchema":${inputSchema}}}`;

/** What a streaming hostile server wrote before each reader hung up (bytes per answer). */
interface Streamed {
  answers: number[];
}

/**
 * Streams `{"/flow/huge": {…, "description": "xxx…` for up to `totalBytes`, as fast as the reader
 * takes it, and records how much it had written when the reader hung up (or it finished).
 */
function streamHuge(response: http.ServerResponse, totalBytes: number, streamed: Streamed): void {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  let bytes = 0;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"/flow/huge":{"key":"/flow/huge","name":"huge","description":"');
  response.on('close', () => streamed.answers.push(response.writableFinished ? Infinity : bytes));
  const pump = () => {
    while (!response.destroyed && bytes < totalBytes) {
      bytes += chunk.byteLength;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end('"}}');
  };
  pump();
}

type Answer = (request: http.IncomingMessage, response: http.ServerResponse) => boolean;

/** A reflection server answering like genkit JS, where `hostile` may take a request first; its runtime file is written into `projectDir`. */
async function reflectionServer(options: { projectDir: string; name: string; hostile?: Answer }) {
  const server = http.createServer((request, response) => {
    if (options.hostile?.(request, response)) return;
    if (request.url?.startsWith('/api/__health')) return void response.writeHead(200).end('{"status":"OK"}');
    if (request.url === '/api/notify') return void request.resume().on('end', () => response.writeHead(200).end('{}'));
    if (request.url === '/api/actions') return void response.writeHead(200, { 'content-type': 'application/json' }).end(actionList(options.name));
    if (request.url?.startsWith('/api/values')) return void response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (request.url === '/api/runAction') return void request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok","telemetry":{}}'));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as { port: number }).port;
  const runtimeFile = { id: `${options.name}-${port}`, pid: process.pid, name: options.name, reflectionServerUrl: `http://127.0.0.1:${port}`, timestamp: new Date().toISOString(), genkitVersion: 'nodejs/1.42.0', reflectionApiSpecVersion: 1 };
  await writeFile(path.join(options.projectDir, '.genkit', 'runtimes', `${options.name}-${port}.json`), JSON.stringify(runtimeFile));
  return { url: `http://127.0.0.1:${port}`, id: runtimeFile.id };
}

async function project(): Promise<string> {
  const projectDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-hostile-'));
  cleanup.push(() => rm(projectDir, { recursive: true, force: true }));
  await mkdir(path.join(projectDir, '.genkit', 'runtimes'), { recursive: true });
  return projectDir;
}

describe('reflection answers are read within the limits of every JSON Loopscope reads', () => {
  it('GET /api/runtimes lists runtimes whose schema nests 1,000 or 10,000 levels, and one whose list is 200 MB, with their problem — the others keep working', async () => {
    const projectDir = await project();
    const huge: Streamed = { answers: [] };
    await reflectionServer({ projectDir, name: 'good' });
    await reflectionServer({ projectDir, name: 'deep', hostile: (request, response) => request.url === '/api/actions' && !!response.writeHead(200).end(actionList('deep', nested(1_000))) });
    // Deep enough to overflow the schema reader's stack even in a fresh process (1,000 did in the server).
    await reflectionServer({ projectDir, name: 'deeper', hostile: (request, response) => request.url === '/api/actions' && !!response.writeHead(200).end(actionList('deeper', nested(10_000))) });
    await reflectionServer({ projectDir, name: 'huge', hostile: (request, response) => request.url === '/api/actions' && (streamHuge(response, 200 * 1024 * 1024, huge), true) });
    const registry = new RuntimeRegistry({ projectDirs: [projectDir], telemetryServerUrl: 'http://127.0.0.1:1/genkit', settleMs: 0 });
    // genkit JS runtimes, attached at their first list: a refused list too, with its problem.
    await registry.scan();
    expect(registry.runtimes().map((runtime) => runtime.name).sort()).toEqual(['deep', 'deeper', 'good', 'huge']);

    const { runtimes } = await listRuntimes({ registry, arrivals: new TraceArrivals(), reflectionSecret: 'test-secret', appSecret: '' });
    const byName = Object.fromEntries(runtimes.map((runtime) => [runtime.name, runtime]));
    expect(byName.good).toMatchObject({ actions: [{ key: '/flow/good', name: 'good', type: 'flow' }], stepPlugin: false });
    expect(byName.good.problem).toBeUndefined();
    expect(byName.deep).toMatchObject({ actions: [], problem: `The runtime did not list its actions: The app's answer to GET /api/actions is nested 1002 levels deep; the limit is ${MAX_JSON_DEPTH}.` });
    expect(byName.deeper).toMatchObject({ actions: [], problem: `The runtime did not list its actions: The app's answer to GET /api/actions is nested 10002 levels deep; the limit is ${MAX_JSON_DEPTH}.` });
    expect(byName.huge).toMatchObject({
      actions: [],
      problem: `The runtime did not list its actions: The app's answer to GET /api/actions is more than ${REFLECTION_MAX_ANSWER_BYTES} bytes; Loopscope reads at most ${REFLECTION_MAX_ANSWER_BYTES} bytes from a reflection server.`,
    });
    // Asked once (the scan that attached it describes it too) and cut off, never read whole: the
    // hostile server could write little more than the limit (plus what the sockets buffer) before
    // Loopscope hung up.
    await expect.poll(() => huge.answers.length).toBe(1);
    for (const bytes of huge.answers) expect(bytes).toBeLessThan(REFLECTION_MAX_ANSWER_BYTES + 16 * 1024 * 1024);
  });

  it('a declared Content-Length over the limit is refused at once, before the body is read', async () => {
    const projectDir = await project();
    await reflectionServer({
      projectDir,
      name: 'declared',
      hostile: (request, response) => {
        if (request.url !== '/api/actions') return false;
        // Declares more than the limit, sends two bytes and stalls: only the headers can refuse it.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(REFLECTION_MAX_ANSWER_BYTES + 1) });
        response.write('{"');
        return true;
      },
    });
    const registry = new RuntimeRegistry({ projectDirs: [projectDir], telemetryServerUrl: 'http://127.0.0.1:1/genkit', settleMs: 0 });
    await registry.scan();
    await registry.scan();
    const [runtime] = await Promise.all(registry.runtimes().map((known) => registry.describe(known)));
    expect(runtime).toMatchObject({
      name: 'declared',
      actions: [],
      problem: `The runtime did not list its actions: The app's answer to GET /api/actions is ${REFLECTION_MAX_ANSWER_BYTES + 1} bytes; Loopscope reads at most ${REFLECTION_MAX_ANSWER_BYTES} bytes from a reflection server.`,
    });
  });

  it('runAction: an answer nested too deep or too large is a clear error; plain text is still read as genkit sends it', async () => {
    const projectDir = await project();
    const sent: Streamed = { answers: [] };
    const deep = await reflectionServer({ projectDir, name: 'deep-run', hostile: (request, response) => request.url === '/api/runAction' && (request.resume(), !!response.writeHead(200).end(`{"result":${nested(1_000)}}`)) });
    const huge = await reflectionServer({ projectDir, name: 'huge-run', hostile: (request, response) => request.url === '/api/runAction' && (request.resume(), streamHuge(response, 200 * 1024 * 1024, sent), true) });
    const text = await reflectionServer({ projectDir, name: 'text-run', hostile: (request, response) => request.url === '/api/runAction' && (request.resume(), !!response.writeHead(404).end('action /flow/x not found')) });
    const refusal = (url: string) => runReflectionAction({ url, key: '/flow/x', input: 'hi' }).then(() => undefined, (error: unknown) => error);

    const tooDeep = await refusal(deep.url);
    expect(LoopscopeError.isInstance(tooDeep) && [tooDeep.code, tooDeep.message]).toEqual(['FAILED_PRECONDITION', `The app's answer to POST /api/runAction (/flow/x) is nested 1001 levels deep; the limit is ${MAX_JSON_DEPTH}.`]);
    const tooLarge = await refusal(huge.url);
    expect(LoopscopeError.isInstance(tooLarge) && [tooLarge.code, tooLarge.message]).toEqual([
      'FAILED_PRECONDITION',
      `The app's answer to POST /api/runAction (/flow/x) is more than ${REFLECTION_MAX_ANSWER_BYTES} bytes; Loopscope reads at most ${REFLECTION_MAX_ANSWER_BYTES} bytes from a reflection server.`,
    ]);
    await expect.poll(() => sent.answers.length).toBe(1);
    expect(sent.answers[0]).toBeLessThan(REFLECTION_MAX_ANSWER_BYTES + 16 * 1024 * 1024);
    expect(await runReflectionAction({ url: text.url, key: '/flow/x', input: 'hi' })).toEqual({ body: { error: { code: 5, message: 'action /flow/x not found' } } });
  });
});

describe('runtime files are read within limits too', () => {
  it('a runtime file nested 10,000 levels or larger than 64 KiB is refused, and the good runtime beside it is attached', async () => {
    const projectDir = await project();
    await reflectionServer({ projectDir, name: 'good' });
    const runtimes = path.join(projectDir, '.genkit', 'runtimes');
    await writeFile(path.join(runtimes, 'deep.json'), `{"id":"deep","pid":${process.pid},"reflectionServerUrl":"http://127.0.0.1:1","extra":${nested(10_000)}}`);
    await writeFile(path.join(runtimes, 'large.json'), JSON.stringify({ id: 'large', pid: process.pid, reflectionServerUrl: 'http://127.0.0.1:1', padding: 'x'.repeat(100_000) }));
    const refusals: string[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => void refusals.push(String(args[0]));
    try {
      const registry = new RuntimeRegistry({ projectDirs: [projectDir], telemetryServerUrl: 'http://127.0.0.1:1/genkit', settleMs: 0 });
      await registry.scan();
      await registry.scan();
      expect(registry.runtimes().map((runtime) => runtime.name)).toEqual(['good']);
    } finally {
      console.error = originalError;
    }
    // The good runtime's own line (its reflection server is open to rebinding) is not a refusal.
    expect(refusals.filter((line) => line.startsWith('loopscope: not attaching')).sort()).toEqual([
      `loopscope: not attaching to ${path.join(runtimes, 'deep.json')}: it is nested 10001 levels deep; the limit is ${MAX_JSON_DEPTH}.`,
      `loopscope: not attaching to ${path.join(runtimes, 'large.json')}: it is larger than 65536 bytes, which no genkit runtime file is.`,
    ]);
  });
});
