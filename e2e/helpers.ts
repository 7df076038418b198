import { spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { expect, type Locator, type Page } from '@playwright/test';
import config, { E2E_PORT, E2E_TOKEN } from '../playwright.config';

export const TOKEN = E2E_TOKEN;
export const PORT = E2E_PORT;
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export type RunStatus = 'running' | 'interrupted' | 'finished' | 'failed';

/**
 * Opens the home page and waits until the runner says it is ready (it may be starting or
 * restarting). `baseUrl` names another server (see startSecondServer); the e2e server by default.
 */
export async function openHomeWithReadyRunner(page: Page, baseUrl = ''): Promise<void> {
  await page.goto(`${baseUrl}/`);
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
 */
export function rawRequest(options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${PORT}`, ...options.headers },
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
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** Stops the server, its Next process and its runner; safe to call twice. */
  stop(): Promise<void>;
}

const liveSecondServers = new Map<SecondServer, number>();
process.on('exit', () => {
  // Last resort when a worker ends with a server still up: nothing may outlive the tests.
  for (const pid of liveSecondServers.values()) signalGroup(pid, 'SIGKILL');
});

function freePort(): Promise<number> {
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

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** True while any process of the group led by `pid` is alive. */
function groupAlive(pid: number): boolean {
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
 * process group of its own (start script, `next start`, runner), so that it can be stopped
 * whole. Resolves when its start banner says it is up.
 */
export async function startSecondServer(): Promise<SecondServer> {
  const webServer = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: process.cwd(),
    env: { ...process.env, ...webServer?.env, PORT: String(port) },
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
  const server: SecondServer = { port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, stop };
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
