import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeRegistry } from './runtime-registry';

/**
 * The registry attaches a runtime only once its action list is stable: genkit Python 0.12 writes
 * its runtime file before app.py has defined its flows (measured: an early /api/actions listed 4
 * of 8). A stand-in reflection server plays that app: its list grows after its first answers.
 */
const EARLY = ['/tool.v2/getWeather', '/tool.v2/convertTemperature', '/tool.v2/writeMarker', '/util/generate'];
const ALL = [...EARLY, '/flow/planTrip', '/flow/bookTrip', '/model/app/scripted', '/tool.v2/bookHotel'];

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/**
 * A reflection server whose first `earlyLists` action lists name only EARLY, and a project whose
 * runtime file points at it: genkit Python's (`py/0.12.0`) unless `genkitVersion` says otherwise.
 */
async function fakeRuntime(options: { earlyLists: number; settleMs?: number; pollMs?: number; genkitVersion?: string }) {
  let lists = 0;
  const notified: unknown[] = [];
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/api/__health')) return void response.writeHead(200).end('{"status":"OK"}');
    if (request.url === '/api/notify') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        notified.push(JSON.parse(body));
        response.writeHead(200).end('{}');
      });
      return;
    }
    if (request.url === '/api/actions') {
      lists += 1;
      const keys = lists <= options.earlyLists ? EARLY : ALL;
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Object.fromEntries(keys.map((key) => [key, { key, name: key.split('/').pop() }]))));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  const projectDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-registry-'));
  cleanup.push(() => rm(projectDir, { recursive: true, force: true }));
  await mkdir(path.join(projectDir, '.genkit', 'runtimes'), { recursive: true });
  const runtimeFile = { id: `${process.pid}-${port}`, pid: process.pid, reflectionServerUrl: `http://127.0.0.1:${port}`, timestamp: '2026-12-01T22:47:14.971673', genkitVersion: options.genkitVersion ?? 'py/0.12.0', reflectionApiSpecVersion: 1 };
  await writeFile(path.join(projectDir, '.genkit', 'runtimes', `${process.pid}-${port}-1796165234971.json`), JSON.stringify(runtimeFile));
  // Scans back to back unless a test says otherwise: these tests count lists, not milliseconds.
  const registry = new RuntimeRegistry({ projectDirs: [projectDir], telemetryServerUrl: 'http://127.0.0.1:1/genkit', settleMs: options.settleMs ?? 0, ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
  return { registry, notified, lists: () => lists };
}

/** A fake runtime's registry started with a 50 ms settle time and a poll a minute apart (only the settle scan can attach it), once it attached. */
async function startedUntilAttached(options: { earlyLists: number }) {
  const made = await fakeRuntime({ earlyLists: options.earlyLists, settleMs: 50, pollMs: 60_000 });
  cleanup.push(async () => made.registry.stop());
  made.registry.start();
  await expect.poll(() => made.registry.runtimes().length, { timeout: 5_000 }).toBe(1);
  return made;
}


describe('RuntimeRegistry: a runtime is attached once its action list is stable', () => {
  it('does not trust an early, shorter list: attached only when two lists in a row agree, with all 8 actions', async () => {
    const { registry, notified, lists } = await fakeRuntime({ earlyLists: 1 });
    await registry.scan();
    expect(registry.runtimes()).toEqual([]);
    // Told where to send spans at first sight, before it is attached.
    expect(notified).toEqual([{ telemetryServerUrl: 'http://127.0.0.1:1/genkit', reflectionApiSpecVersion: 1 }]);
    await registry.scan();
    expect(registry.runtimes()).toEqual([]);
    await registry.scan();
    const [runtime] = registry.runtimes();
    expect(runtime).toMatchObject({ runtime: 'genkit-python', pid: process.pid });
    // Three scans' lists: it is described by the last, which settled it.
    expect(lists()).toBe(3);
    const described = await registry.describe(runtime);
    expect(described.actions.map((action) => action.key).sort()).toEqual([...ALL].sort());
    expect(notified).toHaveLength(1);
    // Reached over genkit's HTTP reflection server: described as open to DNS-rebinding pages (issue 36).
    expect(described.reflectionWarning).toMatch(/checks neither Host nor Origin: a web page on a name that resolves to 127\.0\.0\.1 \(DNS rebinding\) can list and run its actions/);
  });

  it('a runtime whose list is complete from the start is attached at the second scan', async () => {
    const { registry } = await fakeRuntime({ earlyLists: 0 });
    await registry.scan();
    expect(registry.runtimes()).toEqual([]);
    await registry.scan();
    expect(registry.runtimes()).toHaveLength(1);
    // Once attached it is not listed again by the scan.
    await registry.scan();
    expect(registry.runtimes()).toHaveLength(1);
  });

  it('two equal lists taken back to back do not attach it: they must be the settle time apart', async () => {
    const { registry, lists } = await fakeRuntime({ earlyLists: 0, settleMs: 60_000 });
    await registry.scan();
    await registry.scan();
    await registry.scan();
    expect(lists()).toBe(3);
    expect(registry.runtimes()).toEqual([]);
  });

  it('a started registry takes the confirming list after the settle time, not at the next poll', async () => {
    // A poll a minute apart: only the settle scan can attach it within the test.
    const { lists } = await startedUntilAttached({ earlyLists: 0 });
    // The two that settled it.
    expect(lists()).toBe(2);
  });

  it('a list that grew starts the settle time again, and the settle scan still attaches it with all its actions', async () => {
    const { registry, lists } = await startedUntilAttached({ earlyLists: 1 });
    expect(lists()).toBe(3);
    const described = await registry.describe(registry.runtimes()[0]);
    expect(described.actions.map((action) => action.key).sort()).toEqual([...ALL].sort());
  });

  it('an attached runtime is described by the list that settled it: the first describe asks the app for no list', async () => {
    const { registry, lists } = await fakeRuntime({ earlyLists: 0 });
    await registry.scan();
    await registry.scan();
    expect(registry.runtimes()).toHaveLength(1);
    const described = await registry.describe(registry.runtimes()[0]);
    expect(described.actions).toHaveLength(ALL.length);
    // The two lists that settled it, and no third.
    expect(lists()).toBe(2);
  });
});

describe('RuntimeRegistry: a genkit JS runtime is attached at its first list', () => {
  it('listed by the first scan that sees it, described by that one list, with no settle time', async () => {
    // A settle time no test waits out: only a runtime that does not settle can be listed here.
    const { registry, lists } = await fakeRuntime({ earlyLists: 0, settleMs: 60_000, genkitVersion: 'nodejs/1.42.0' });
    await registry.scan();
    const [runtime] = registry.runtimes();
    expect(runtime).toMatchObject({ runtime: 'genkit-js', pid: process.pid });
    const described = await registry.describe(runtime);
    expect(described.actions.map((action) => action.key).sort()).toEqual([...ALL].sort());
    expect(lists()).toBe(1);
  });

  it('a genkit Python runtime under the same settle time is not listed by any number of scans', async () => {
    const { registry } = await fakeRuntime({ earlyLists: 0, settleMs: 60_000 });
    for (let scan = 0; scan < 3; scan++) await registry.scan();
    expect(registry.runtimes()).toEqual([]);
  });
});
