import { spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import config, { E2E_PORT, E2E_STORAGE_STATE, E2E_TOKEN } from '../playwright.config';

export const TOKEN = E2E_TOKEN;
export const PORT = E2E_PORT;
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const AUTH = { authorization: `Bearer ${TOKEN}` };

/** What the run page's status pill says: `answered` is an interrupted run answered from the workbench. */
export type RunStatus = 'running' | 'interrupted' | 'answered' | 'finished' | 'failed' | 'stopped';

/** Where global-setup.ts saves the browser state after the token exchange; every test's context starts from it. */
export const STORAGE_STATE = E2E_STORAGE_STATE;

/**
 * Opens the home page and waits until the runner says it is ready (it may be starting or
 * restarting). `baseUrl` names another server (see startSecondServer); the e2e server by default.
 * Another server is opened through its banner URL (`/#token=…`): the session cookie of the
 * e2e server (from STORAGE_STATE) is named after its port and opens no other server.
 */
export async function openHomeWithReadyRunner(page: Page, baseUrl = ''): Promise<void> {
  await page.goto(baseUrl ? `${baseUrl}/#token=${TOKEN}` : '/');
  await expect(page.getByTestId('runner-state')).toContainText('runner: ready', { timeout: 45_000 });
}

/**
 * Clicks a scenario's Run button on the home page and waits for the run page, then opens the
 * given view (the span tree by default; the graph is the page's first tab). Returns the run id.
 */
export async function runScenarioFromHome(page: Page, scenario: string, view: 'spans' | 'graph' = 'spans'): Promise<string> {
  await openHomeWithReadyRunner(page);
  const card = page.locator(`[data-testid=scenario-card][data-scenario="${scenario}"]`);
  await expect(card).toBeVisible();
  const started = page.waitForResponse((response) => response.url().endsWith('/api/runs') && response.request().method() === 'POST');
  await card.getByTestId(`run-${scenario}`).click();
  const response = await started;
  expect(response.status(), `POST /api/runs for ${scenario} answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  if (view === 'spans') await page.getByTestId('tab-spans').click();
  return runId;
}

/** Waits until the run page shows the given status. */
export async function expectRunStatus(page: Page, status: RunStatus, timeout = 30_000): Promise<void> {
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', status, { timeout });
}

/** All rows of the span tree. */
export function spanRows(page: Page): Locator {
  return page.locator('[data-testid=span-tree] [data-testid=span-row]');
}

/** Span rows filtered by role and, optionally, label and outcome. */
export function spanRowsWhere(page: Page, filter: { role?: string; label?: string; outcome?: string }): Locator {
  let selector = '[data-testid=span-tree] [data-testid=span-row]';
  if (filter.role) selector += `[data-role="${filter.role}"]`;
  if (filter.label) selector += `[data-label="${filter.label}"]`;
  if (filter.outcome) selector += `[data-outcome="${filter.outcome}"]`;
  return page.locator(selector);
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * A request through node:http, so any Host / Origin header can be set (fetch forbids Host).
 * Answers with the response even when the server stops reading a too-large body early.
 * `address` / `port` reach another socket (`::1`, a second server); the e2e server's 127.0.0.1 by default.
 */
export function rawRequest(options: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  address?: string;
  port?: number;
}): Promise<RawResponse> {
  const port = options.port ?? PORT;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: options.address ?? '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', (error) => {
      // EPIPE / ECONNRESET after the server answered early (e.g. 413) is expected.
      if (!answered) reject(error);
    });
    if (options.body !== undefined) request.end(options.body);
    else request.end();
  });
}

/**
 * Writes raw bytes to a socket and resolves, once the server closes the connection, with
 * everything it answered and when it closed (ms after the write). For requests node:http
 * cannot send: headers without their body, a body shorter than its Content-Length, headers
 * that never end.
 */
export function rawExchange(options: { text: string; port?: number; address?: string }): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options.port ?? PORT, options.address ?? '127.0.0.1');
    let text = '';
    let sentAt = 0;
    socket.on('connect', () => {
      sentAt = Date.now();
      socket.write(options.text);
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', (error) => {
      if (sentAt === 0) reject(error);
    });
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - sentAt }));
  });
}

/** Exchanges the token for a session cookie (POST /api/session) and returns the `Cookie` header that carries it. */
export async function sessionCookieHeader(port = PORT): Promise<string> {
  const exchanged = await rawRequest({ method: 'POST', path: '/api/session', headers: AUTH, port });
  expect(exchanged.status, exchanged.text).toBe(204);
  const setCookie = exchanged.headers['set-cookie']?.[0] ?? '';
  expect(setCookie).toMatch(new RegExp(`^loopscope_session_${port}=[^;]+; HttpOnly; SameSite=Strict; Path=/$`));
  return setCookie.split(';')[0];
}

/**
 * Serves one HTML page from another origin (127.0.0.1 on a free port): another local app,
 * same-site with Loopscope, as a page that tries to frame it or borrow its cookie.
 */
export async function serveOtherOrigin(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A tiny valid OTLP JSON export request with one span of a fresh trace. */
export function tinyOtlpTrace(name: string): { traceId: string; spanId: string; body: string } {
  const hex = (bytes: number) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('');
  const traceId = hex(16);
  const spanId = hex(8);
  const start = BigInt(Date.now()) * 1_000_000n;
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'e2e-exporter' } }] },
        scopeSpans: [
          {
            scope: { name: 'e2e' },
            spans: [
              {
                traceId,
                spanId,
                name,
                kind: 1,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + 5_000_000n),
                attributes: [],
                status: { code: 1 },
              },
            ],
          },
        ],
      },
    ],
  };
  return { traceId, spanId, body: JSON.stringify(body) };
}

export interface SecondServer {
  port: number;
  baseUrl: string;
  /** The start script's pid (the server process itself; the runner is its child). */
  pid: number;
  /** Resolves when the start script has exited. */
  exited: Promise<void>;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** Stops the server and its runner; safe to call twice. */
  stop(): Promise<void>;
}

const liveSecondServers = new Map<SecondServer, number>();
process.on('exit', () => {
  // Last resort when a worker ends with a server still up: nothing may outlive the tests.
  for (const pid of liveSecondServers.values()) signalGroup(pid, 'SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a second, fresh Loopscope server — the same production build (`.next`), data folders,
 * token and settings as the e2e server of playwright.config.ts, on another free port — as a
 * process group of its own (the start script, which is the server, and its runner), so that it can be stopped
 * whole. Resolves when its start banner says it is up. `env` adds settings (e.g. short timeouts).
 */
export async function startSecondServer(options: { env?: Record<string, string> } = {}): Promise<SecondServer> {
  const webServer = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: process.cwd(),
    env: { ...process.env, ...webServer?.env, ...options.env, PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid as number;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    liveSecondServers.delete(server);
    if (!groupAlive(pid)) return;
    signalGroup(pid, 'SIGTERM');
    for (let waited = 0; waited < 5_000 && groupAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
    await exited;
  };
  const server: SecondServer = { port, baseUrl: `http://127.0.0.1:${port}`, pid, exited, output: () => output, stop };
  liveSecondServers.set(server, pid);
  const started = Date.now();
  while (!output.includes('Loopscope is running')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() - started > 30_000) {
      await stop();
      throw new Error(`The second server on port ${port} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

/** Stops every second server a test left running (for afterEach: a timed-out test skips its finally). */
export async function stopSecondServers(): Promise<void> {
  await Promise.all([...liveSecondServers.keys()].map((server) => server.stop()));
}

const GRAPH_FIXTURES = path.join(process.cwd(), 'lib', 'graph', '__fixtures__');

/** Imports a recorded fixture of lib/graph/__fixtures__ through the import route; returns its trace ids, oldest root first. */
export async function importFixture(request: APIRequestContext, name: string): Promise<string[]> {
  return importTraceFile(request, path.join(GRAPH_FIXTURES, `${name}.otlp.json`));
}

/** Imports a framework's recorded fixture (lib/runtimes/<runtime>/__fixtures__/<case>.otlp.json); returns its trace ids, oldest root first. */
export async function importFrameworkFixture(request: APIRequestContext, fixture: { runtime: string; fixtureCase: string }): Promise<string[]> {
  return importTraceFile(request, path.join(process.cwd(), 'lib', 'runtimes', fixture.runtime, '__fixtures__', `${fixture.fixtureCase}.otlp.json`));
}

async function importTraceFile(request: APIRequestContext, file: string): Promise<string[]> {
  const name = path.basename(file, '.otlp.json');
  const text = readFileSync(file, 'utf8');
  const response = await request.post('/api/traces/import', { headers: AUTH, data: { fileName: `${name}.otlp.json`, text } });
  expect(response.status(), await response.text()).toBe(201);
  const roots = decodeOtlpJson(JSON.parse(text))
    .filter((span) => span.parentSpanId === undefined)
    .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  return [...new Set(roots.map((span) => span.traceId))];
}
