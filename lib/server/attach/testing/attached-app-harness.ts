/**
 * What the attach integration tests share (attached-app / -go-app / -python-app): Loopscope's
 * real genkit telemetry door (createOtlpFastPath: guard, body limit, TraceData reader, store) and
 * its real reflection door (the WebSocket the app dials in on: reflection-door.ts) on an HTTP
 * port, an attachment created from the environment `loopscope start -- <cmd>` sets, and
 * an AppContext with the store, the runs, that attachment and the step door's AttachedSteps (no
 * built-in runner).
 *
 * Each test app runs in a scratch folder of its own (its cwd, holding a copy of the marker file
 * genkit looks for; the runtimes' projectDir): an app that dials in writes no runtime file, but a
 * genkit that would not (or the reflection-only capture tests, which run the same apps from
 * examples/apps/) writes it next to the nearest go.mod (Go) or in its cwd (Python), so two test
 * files run in parallel by vitest never share a `.genkit/runtimes/`.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { TraceStore } from '../../../store/trace-store';
import type { AppContext } from '../../app-context-ports';
import { IngestGate } from '../../ingest/ingest-gate';
import { errorMessage, LoopscopeError } from '../../../errors';
import { createOtlpFastPath } from '../../http/otlp-fast-path';
import { RunRegistry } from '../../services/run-registry';
import { freePort } from '../../testing/free-port';
import { createAttachment, listRuntimes, type Attachment } from '../attach-service';
import { AttachedSteps } from '../attached-steps';
import { createReflectionDoor } from '../reflection-door';
import { answerStepDoor } from '../step-door';
import { listeningPortsOfTree, type ListeningPort } from './listening-ports';
import { rebindingRunAction, refused, type RebindingAnswer } from './rebinding-request';

export interface AttachedAppHarness {
  attachment: Attachment;
  context: AppContext;
  store: TraceStore;
  /** The app's cwd (a scratch folder). */
  appCwd: string;
  /** The file the app's marker-writing tools append to. */
  markerPath: string;
  /** Every request the telemetry door answered: its path and status. */
  doorRequests: { path: string; status: number }[];
  close(): Promise<void>;
}

/** Polls `probe` every 50 ms until it returns something other than undefined / false. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The marker lines the app's tools wrote (`{runtime, tool, input, pid}` per line). */
export async function markerLines(markerPath: string): Promise<{ runtime: string; tool: string; input: unknown; pid: number }[]> {
  const text = await readFile(markerPath, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The attached runtime of the supervised app's current process (by pid), once it lists its actions. */
export function appRuntime(harness: AttachedAppHarness) {
  return until('the app to register', async () => {
    const { runtimes } = await listRuntimes(harness.attachment);
    return runtimes.find((runtime) => runtime.pid === harness.attachment.app?.pid && runtime.actions.length > 0);
  });
}

/**
 * What a page that rebinds a name to 127.0.0.1 reaches of the supervised app (issue 36): every TCP
 * port its process tree listens on, and the ports where the rebinding runAction of `key` ran.
 */
export async function rebindingProbe(options: { attachment: Attachment; key: string }): Promise<{ ports: ListeningPort[]; answered: (ListeningPort & { answer: RebindingAnswer })[] }> {
  const ports = await listeningPortsOfTree(options.attachment.app!.pid!);
  const answered: (ListeningPort & { answer: RebindingAnswer })[] = [];
  for (const entry of ports) {
    const answer = await rebindingRunAction({ port: entry.port, address: entry.address, key: options.key, input: { city: 'Oslo' } });
    if (!refused(answer)) answered.push({ ...entry, answer });
  }
  return { ports, answered };
}

/** The step door as the server answers it (app/attach/step/[op]): JSON in, JSON or the error's status out. */
async function answerStepRequest(options: { request: http.IncomingMessage; op: string; steps: AttachedSteps }): Promise<{ status: number; body: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of options.request) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return { status: 200, body: await answerStepDoor({ steps: options.steps, op: options.op, authorization: options.request.headers.authorization ?? null, body }) };
  } catch (error) {
    return { status: LoopscopeError.isInstance(error) ? error.httpStatus : 500, body: { error: { message: errorMessage(error) } } };
  }
}

/**
 * Starts the door, then the app as `loopscope start -- <command>` would (LOOPSCOPE_APP_COMMAND /
 * LOOPSCOPE_APP_CWD). `command` gets the scratch folder (cwd) and the marker path: Loopscope drops
 * LOOPSCOPE_* from the app's environment, so the test passes LOOPSCOPE_APP_MARKER through `env`
 * in the command itself, as a user would pass a variable of their own.
 */
export async function startAttachedApp(options: {
  name: string;
  prepareCwd?: (cwd: string) => Promise<void>;
  command: (where: { cwd: string; markerPath: string }) => string[];
  /** The app's folder, when it must run in its own (the JS example resolves genkit from the repo); a scratch folder otherwise. */
  cwd?: string;
  /** More environment for the app (not LOOPSCOPE_*: those never reach it). */
  env?: Record<string, string>;
}): Promise<AttachedAppHarness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `loopscope-${options.name}-`));
  const appCwd = options.cwd ?? path.join(dataDir, 'app');
  const markerPath = path.join(dataDir, 'marker.jsonl');
  if (!options.cwd) await mkdir(appCwd);
  await options.prepareCwd?.(appCwd);
  const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  const port = await freePort();
  const token = `${options.name}-token`;
  const holder: { attachment?: Attachment } = {};
  const receiver = {
    store,
    bus: { publish: () => undefined },
    ingestGate: new IngestGate(),
    get attachment() {
      return holder.attachment;
    },
  };
  const door = createOtlpFastPath({ context: () => receiver, guard: { port, token } });
  const doorRequests: { path: string; status: number }[] = [];
  const runs = new RunRegistry(() => undefined);
  const attachedSteps = new AttachedSteps({
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onTrace: (runId, traceId) => runs.addTrace(runId, traceId),
  });
  const server = http.createServer((request, response) => {
    // The step middleware's door, for stepped generates (genkit JS apps with the plugin).
    const stepOp = /^\/attach\/step\/(\w+)$/.exec(request.url ?? '')?.[1];
    if (stepOp) {
      void answerStepRequest({ request, op: stepOp, steps: attachedSteps }).then(({ status, body }) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
      return;
    }
    const answer = door(request);
    if (!answer) {
      doorRequests.push({ path: request.url ?? '', status: 404 });
      response.writeHead(404).end();
      return;
    }
    void answer.then((reply) => {
      doorRequests.push({ path: request.url ?? '', status: reply.status });
      response.writeHead(reply.status, reply.headers).end(Buffer.from(reply.body));
    });
  });
  const reflectionDoor = createReflectionDoor({ attachment: () => holder.attachment, guard: { port, token } });
  // eslint-disable-next-line @typescript-eslint/max-params -- node:http's 'upgrade' event signature
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!reflectionDoor({ request, socket, head })) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const attachment = createAttachment({
    environment: {
      ...process.env,
      ...options.env,
      LOOPSCOPE_APP_COMMAND: JSON.stringify(options.command({ cwd: appCwd, markerPath })),
      LOOPSCOPE_APP_CWD: appCwd,
      // Must not reach the app (app-environment.ts).
      LOOPSCOPE_TOKEN: token,
    },
    port,
  });
  holder.attachment = attachment;
  // No built-in runner holds these runs: step commands go to the attached app's steps.
  const noRunner = { holdsRun: () => false, command: async () => ({ ok: false, message: 'not a runner run' }) };
  const context = { store, runs, attachment, attachedSteps, goRunner: noRunner, supervisor: noRunner, config: { port } } as unknown as AppContext;
  return {
    attachment,
    context,
    store,
    appCwd,
    markerPath,
    doorRequests,
    async close() {
      await attachment.app?.stop();
      attachment.registry.stop();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The actions the Go and Python example apps both define (the same app in two languages), as
 * `[type, key]` in listing order.
 */
export const EXAMPLE_APP_ACTIONS = [
  ['flow', '/flow/bookTrip'],
  ['flow', '/flow/planTrip'],
  ['tool', '/tool.v2/bookHotel'],
  ['tool', '/tool.v2/convertTemperature'],
  ['tool', '/tool.v2/getWeather'],
  ['tool', '/tool.v2/writeMarker'],
  ['model', '/model/app/scripted'],
  ['util', '/util/generate'],
];

/** The ended spans of a trace once there are `count` of them (an app's spans arrive after its answer). */
export function storedSpans(options: { harness: AttachedAppHarness; traceId: string; count: number }) {
  return until(`${options.count} ended spans of ${options.traceId}`, async () => {
    const stored = ((await options.harness.store.get(options.traceId)) ?? []).filter((span) => span.endTimeUnixNano !== undefined);
    return stored.length >= options.count ? stored : undefined;
  });
}

/**
 * Kills the supervised app and waits until it is back under a new runtime id that lists
 * `actions` actions (all of them: a Python app lists some before its flows are defined).
 */
export async function killAndReregister(options: { harness: AttachedAppHarness; firstRuntimeId: string; actions: number; label: string }) {
  const { harness, firstRuntimeId } = options;
  const oldPid = harness.attachment.app!.pid!;
  const killedAt = Date.now();
  process.kill(oldPid, 'SIGKILL');
  const next = await until('the app to re-register', async () => {
    const { runtimes } = await listRuntimes(harness.attachment);
    return runtimes.find((runtime) => runtime.id !== firstRuntimeId && runtime.pid !== oldPid && runtime.actions.length === options.actions);
  });
  console.log(`${options.label}: killed app re-registered after ${Date.now() - killedAt} ms`);
  return next;
}
