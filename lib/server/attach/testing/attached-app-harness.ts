/**
 * What the attach integration tests share (attached-go-app / attached-python-app): Loopscope's
 * real genkit telemetry door (createOtlpFastPath: guard, body limit, TraceData reader, store) on
 * an HTTP port, an attachment created from the environment `loopscope start -- <cmd>` sets, and
 * an AppContext with the store, the runs and that attachment (no built-in runner).
 *
 * Each test app runs in a scratch folder of its own (its cwd, holding a copy of the marker file
 * genkit looks for): genkit Go writes its runtime file next to the nearest go.mod and genkit Python
 * in its cwd, so two test files run in parallel by vitest never share a `.genkit/runtimes/`
 * (the reflection-only capture tests run the same apps from examples/apps/).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { TraceStore } from '../../../trace/trace-store';
import type { AppContext } from '../../app-context';
import { IngestGate } from '../../ingest-gate';
import { createOtlpFastPath } from '../../otlp-fast-path';
import { RunRegistry } from '../../run-registry';
import { freePort } from '../../testing/free-port';
import { createAttachment, listRuntimes, type Attachment } from '../attach-service';

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
 * Starts the door, then the app as `loopscope start -- <command>` would (LOOPSCOPE_APP_COMMAND /
 * LOOPSCOPE_APP_CWD). `command` gets the scratch folder (cwd) and the marker path: Loopscope drops
 * LOOPSCOPE_* from the app's environment, so the test passes LOOPSCOPE_APP_MARKER through `env`
 * in the command itself, as a user would pass a variable of their own.
 */
export async function startAttachedApp(options: { name: string; prepareCwd?: (cwd: string) => Promise<void>; command: (where: { cwd: string; markerPath: string }) => string[] }): Promise<AttachedAppHarness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `loopscope-${options.name}-`));
  const appCwd = path.join(dataDir, 'app');
  const markerPath = path.join(dataDir, 'marker.jsonl');
  await mkdir(appCwd);
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
  const server = http.createServer((request, response) => {
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const attachment = createAttachment({
    environment: {
      ...process.env,
      LOOPSCOPE_APP_COMMAND: JSON.stringify(options.command({ cwd: appCwd, markerPath })),
      LOOPSCOPE_APP_CWD: appCwd,
      // Must not reach the app (app-environment.ts).
      LOOPSCOPE_TOKEN: token,
    },
    port,
  });
  holder.attachment = attachment;
  const runs = new RunRegistry(() => undefined);
  const noRunner = { holdsRun: () => false, command: async () => ({ ok: false, message: 'not a runner run' }) };
  const context = { store, runs, attachment, goRunner: noRunner, supervisor: noRunner, config: { port } } as unknown as AppContext;
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
