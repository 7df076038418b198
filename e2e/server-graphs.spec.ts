import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type Response } from '@playwright/test';
import { AUTH, expectRunStatus, openHomeWithReadyRunner } from './helpers';

/**
 * Issue 11: every page draws Graph JSON the server built — a live run's graph arrives over the
 * event stream as it grows; trace, saved-file and replay pages fetch theirs. Here the routes
 * that serve raw spans (what a page would need to build a graph itself) are refused, and the
 * graphs still draw.
 */

test.use({ viewport: { width: 1440, height: 900 } });

/** The routes that serve a trace's or a saved file's spans as OTLP JSON. */
const SPAN_ROUTES = [/^\/api\/traces\/[0-9a-f]{32}$/, /^\/api\/saved\/[^/]+$/];

/** Refuses every span request of the page; returns the paths it asked for. */
async function refuseSpanRequests(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(
    (url) => SPAN_ROUTES.some((route) => route.test(url.pathname)),
    (route) => {
      asked.push(new URL(route.request().url()).pathname);
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"UNAVAILABLE","message":"span requests are refused in this test"}}' });
    },
  );
  return asked;
}

const nodes = (page: Page, kind?: string) => page.locator(`[data-testid=run-graph] [data-testid=graph-node]${kind ? `[data-kind="${kind}"]` : ''}`);

/** Tool calls that ran and finished. */
const finishedTools = (page: Page) => page.locator('[data-testid=run-graph] [data-testid=graph-node][data-kind="tool-call"][data-tone="ok"]');

function isPost(pathname: RegExp): (response: Response) => boolean {
  return (response) => response.request().method() === 'POST' && pathname.test(new URL(response.url()).pathname);
}

test('server graphs: a step-by-step run draws the server’s graph as it is stepped, with span requests refused', async ({ page, request }) => {
  const asked = await refuseSpanRequests(page);
  await openHomeWithReadyRunner(page);
  const card = page.locator('[data-testid=scenario-card][data-scenario="plain-tool-round"]');
  const started = page.waitForResponse(isPost(/^\/api\/runs$/));
  await card.getByTestId('step-plain-tool-round').click();
  expect((await started).status()).toBe(202);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  try {
    // Paused before model call 1: the generate has started, nothing else has happened.
    await expect(nodes(page, 'ghost')).toContainText('paused before model call 1');
    await expect(nodes(page, 'model-call')).toHaveCount(0);
    const step = async () => {
      const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/step$`)));
      await page.getByTestId('step-button').click();
      expect((await posted).status()).toBe(200);
    };
    // Each step lets the run go on, and the server's next graph arrives with the new node.
    await step();
    await expect(nodes(page, 'model-call')).toHaveCount(1);
    await expect(nodes(page, 'ghost')).toHaveCount(2);
    await expect(finishedTools(page)).toHaveCount(0);
    await step();
    await expect(finishedTools(page).filter({ hasText: 'getWeather' })).toHaveCount(1);
    await expect(nodes(page, 'ghost')).toHaveCount(1);
    await step();
    await expect(finishedTools(page)).toHaveCount(2);
    await expect(nodes(page, 'ghost')).toContainText('paused before model call 2');
    await step();
    await expectRunStatus(page, 'finished');
    await expect(nodes(page, 'model-call')).toHaveCount(2);
    await expect(nodes(page, 'final-answer')).toHaveCount(1);
    await expect(nodes(page, 'ghost')).toHaveCount(0);
  } finally {
    const { run } = (await (await request.get(`/api/runs/${runId}`, { headers: AUTH })).json()) as { run: { status: string } };
    if (run.status === 'running') await request.post(`/api/runs/${runId}/stop`, { headers: AUTH, data: {} });
  }
  // What the page draws is the server's graph of the run.
  const served = (await (await request.get(`/api/runs/${runId}/graph`, { headers: AUTH })).json()) as { version: number; graph: { nodes: { id: string }[] } };
  expect(served.version).toBeGreaterThanOrEqual(4);
  await expect(nodes(page)).toHaveCount(served.graph.nodes.length);
  for (const node of served.graph.nodes) await expect(page.locator(`[data-testid=run-graph] [data-node-id="${node.id}"]`)).toHaveCount(1);
  // The run page asks for its traces' spans only for the span tree; they were refused.
  expect(asked.length).toBeGreaterThan(0);
  // The detail panel is the server's view of the span: it needs no spans either.
  await finishedTools(page).filter({ hasText: 'getWeather' }).click();
  await expect(page.getByTestId('node-detail').getByTestId('detail-input')).toContainText('Lisbon');
});

test('server graphs: a captured trace, a saved file and a replay draw their graphs and details without asking for spans', async ({ page, request }) => {
  const fixture = path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'interrupt-restart.otlp.json');
  const imported = await request.post('/api/traces/import', { headers: AUTH, data: { fileName: 'interrupt-restart.otlp.json', text: readFileSync(fixture, 'utf8') } });
  expect(imported.status(), await imported.text()).toBe(201);
  const { traceIds } = (await imported.json()) as { traceIds: string[] };
  const asked = await refuseSpanRequests(page);
  await openHomeWithReadyRunner(page);

  // A captured trace: its session (the interrupt and the restart that answered it), linked.
  await page.goto(`/traces/${traceIds[0]}`);
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  await expect(page.locator('.react-flow__edge').filter({ hasText: 'answered by' })).toHaveCount(1);
  await nodes(page, 'tool-interrupt').click();
  await expect(page.getByTestId('interrupt-metadata')).toContainText('approval');
  await expect(page.getByTestId('node-detail').getByTestId('detail-input')).toContainText('amount');
  // The workbench reads the interrupted generate on the server too.
  await page.getByTestId('open-workbench').click();
  await expect(page.getByTestId('workbench-request')).toHaveCount(1);
  await expect(page.getByTestId('workbench-request')).toHaveAttribute('data-state', 'interrupted');
  await expect(page.getByTestId('workbench-request')).toContainText('transferMoney#tx1');
  expect(asked).toEqual([]);

  // A saved file.
  await page.goto('/saved/restart-after-approval.json');
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  await nodes(page, 'tool-interrupt').click();
  await expect(page.getByTestId('interrupt-metadata')).toContainText('approval-required');
  expect(asked).toEqual([]);

  // Its replay: the recorded graph and the replayed one, both from the server.
  const replayed = page.waitForResponse(isPost(/^\/api\/replay$/));
  await page.getByTestId('replay-button').click();
  expect((await replayed).status()).toBe(202);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
  await expect(page.getByTestId('recorded-graph').locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  await expect(page.getByTestId('replayed-graph').locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  expect(asked.filter((pathname) => pathname.startsWith('/api/saved/'))).toEqual([]);

  // Only the span tree asks for spans (and says so when they are refused).
  await page.goto(`/traces/${traceIds[0]}`);
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  const before = asked.length;
  await page.getByTestId('tab-spans').click();
  await expect(page.locator('.error-banner[role=alert]')).toContainText('span requests are refused in this test');
  expect(asked.length).toBeGreaterThan(before);
});
