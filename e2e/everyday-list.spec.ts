import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { AUTH, importFixture, openHomeWithReadyRunner, rawRequest, tinyOtlpTrace } from './helpers';

/** Everyday use (issue 14): the captured list — titles, search and filters, sessions grouped, deletes confirmed. */


/** Sends one tiny trace over OTLP, as any app would; returns its id. */
async function sendTrace(name: string): Promise<string> {
  const { traceId, body } = tinyOtlpTrace(name);
  const response = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body });
  expect(response.status).toBe(200);
  return traceId;
}

const row = (page: Page, traceId: string) => page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`);
const rows = (page: Page) => page.getByTestId('trace-row');

/** Name, size and mtime of every saved file: proof that deleting captured traces left them alone. */
function savedFiles(): string[] {
  return readdirSync(E2E_TRACES_DIR)
    .sort()
    .map((file) => {
      const stats = statSync(path.join(E2E_TRACES_DIR, file));
      return `${file} ${stats.size} ${stats.mtimeMs}`;
    });
}

async function confirmDelete(page: Page, question: string): Promise<void> {
  await expect(page.getByTestId('trace-delete-confirm')).toContainText(question);
  await expect(page.getByTestId('trace-delete-confirm')).toContainText('Saved files in traces/ are not touched.');
  const deleted = page.waitForResponse((response) => response.url().endsWith('/api/traces/delete'));
  await page.getByTestId('trace-delete-confirm-button').click();
  expect((await deleted).status()).toBe(200);
  await expect(page.getByTestId('trace-delete-confirm')).toHaveCount(0);
}

test('everyday: the user finds a trace by title or id with / and the search box, and narrows by status, service and runtime', async ({ page, request }) => {
  const tag = `everyday-search-${Date.now().toString(36)}`;
  const plain = await sendTrace(`${tag}-checkout`);
  const [failed] = await importFixture(request, 'tool-error');
  await openHomeWithReadyRunner(page);
  await expect(row(page, plain)).toBeVisible();
  // The row is titled by its root span, with the service that sent it.
  await expect(row(page, plain).getByTestId('trace-title')).toHaveText(`${tag}-checkout`);
  await expect(row(page, plain).getByTestId('trace-service')).toHaveText('e2e-exporter');
  await expect(row(page, plain).getByTestId('trace-time')).toBeVisible();

  // `/` jumps to the search box from anywhere but another field.
  await page.locator('#traces-heading').click();
  await page.keyboard.press('/');
  await expect(page.getByTestId('trace-search')).toBeFocused();
  await page.keyboard.type(tag);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, plain)).toBeVisible();
  await expect(page.getByTestId('trace-count')).toContainText('1 of');

  // By trace id, then by status: the failed tool trace is `failed`, and not `ok`.
  await page.getByTestId('trace-search').fill(failed);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, failed).getByTestId('trace-runtime')).toHaveText('genkit JS');
  await expect(row(page, failed).getByTestId('trace-runtime')).toHaveAttribute('data-runtime', 'genkit-js');
  await page.getByTestId('trace-filter-status').selectOption('failed');
  await expect(row(page, failed)).toBeVisible();
  await page.getByTestId('trace-filter-status').selectOption('ok');
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('trace-list-none')).toBeVisible();

  // Service and runtime: the OTLP sender's trace has no runtime that Loopscope draws.
  await page.getByTestId('trace-filter-status').selectOption('all');
  await page.getByTestId('trace-search').fill(tag);
  await page.getByTestId('trace-filter-service').selectOption('e2e-exporter');
  await expect(row(page, plain)).toBeVisible();
  await page.getByTestId('trace-filter-runtime').selectOption('genkit-js');
  await expect(rows(page)).toHaveCount(0);
  await page.getByTestId('trace-filter-runtime').selectOption('');
  await page.getByTestId('trace-filter-time').selectOption('hour');
  await expect(row(page, plain)).toBeVisible();
  // A `/` typed inside the search box is text, not the shortcut.
  await page.getByTestId('trace-search').press('/');
  await expect(page.getByTestId('trace-search')).toHaveValue(`${tag}/`);
});

test('everyday: a resumed run is grouped under the run it answered, and the group folds', async ({ page, request }) => {
  const [interrupted, resume] = await importFixture(request, 'interrupt-restart');
  await openHomeWithReadyRunner(page);
  await page.getByTestId('trace-search').fill(interrupted);
  // Searching the original shows its whole session: the original, then the resume indented under it.
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(0)).toHaveAttribute('data-trace-id', interrupted);
  await expect(rows(page).nth(0)).toHaveAttribute('data-depth', '0');
  await expect(rows(page).nth(1)).toHaveAttribute('data-trace-id', resume);
  await expect(rows(page).nth(1)).toHaveAttribute('data-depth', '1');
  await expect(row(page, interrupted).getByTestId('trace-status')).toHaveText('answered');
  const toggle = row(page, interrupted).getByTestId('trace-group-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(row(page, resume)).toHaveCount(0);
  await toggle.click();
  await expect(row(page, resume)).toBeVisible();
  // Found by the resume's id, it still shows under its original.
  await page.getByTestId('trace-search').fill(resume);
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(0)).toHaveAttribute('data-trace-id', interrupted);
});

test('everyday: a replay of a captured run is listed under that run, tagged replay', async ({ page, request }) => {
  const [interrupted] = await importFixture(request, 'interrupt-restart');
  await openHomeWithReadyRunner(page);
  await page.goto(`/traces/${interrupted}`);
  await page.getByTestId('replay-button').click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'finished', { timeout: 30_000 });
  const replayTraces = await Promise.all((await page.locator('.trace-links a').all()).map(async (link) => ((await link.getAttribute('href')) ?? '').split('/traces/')[1]));
  expect(replayTraces.length).toBeGreaterThan(0);
  await page.goto('/');
  await page.getByTestId('trace-search').fill(interrupted);
  await expect(rows(page).nth(0)).toHaveAttribute('data-trace-id', interrupted);
  for (const traceId of replayTraces) {
    await expect(row(page, traceId)).toHaveAttribute('data-depth', '1');
  }
  await expect(row(page, replayTraces[0]).getByTestId('trace-replay-tag')).toHaveText('replay');
});

test('everyday: the user deletes one trace, then the selected ones, then all, each after a confirmation, and saved files stay', async ({ page, request }) => {
  const tag = `everyday-delete-${Date.now().toString(36)}`;
  const ids = [await sendTrace(`${tag}-a`), await sendTrace(`${tag}-b`), await sendTrace(`${tag}-c`)];
  const savedBefore = savedFiles();
  expect(savedBefore.length).toBeGreaterThan(0);
  await openHomeWithReadyRunner(page);
  await page.getByTestId('trace-search').fill(tag);
  await expect(rows(page)).toHaveCount(3);

  // One, from its row; Cancel first keeps it.
  await row(page, ids[0]).getByTestId('trace-delete').click();
  await page.getByTestId('trace-delete-cancel').click();
  await expect(row(page, ids[0])).toBeVisible();
  await row(page, ids[0]).getByTestId('trace-delete').click();
  await confirmDelete(page, 'Delete 1 captured trace?');
  await expect(row(page, ids[0])).toHaveCount(0);
  await expect(rows(page)).toHaveCount(2);
  expect((await request.get(`/api/traces/${ids[0]}`, { headers: AUTH })).status()).toBe(404);

  // The selected ones.
  for (const id of ids.slice(1)) await row(page, id).getByTestId('trace-select').check();
  await expect(page.getByTestId('trace-delete-selected')).toHaveText('Delete selected (2)');
  await page.getByTestId('trace-delete-selected').click();
  await confirmDelete(page, 'Delete 2 captured traces?');
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('trace-delete-message')).toContainText('Deleted 2 captured traces');

  // An id that is not captured is refused by name, never a 500.
  const unknown = 'fedcba9876543210fedcba9876543210';
  const refused = await request.post('/api/traces/delete', { headers: AUTH, data: { traceIds: [unknown] } });
  expect(refused.status()).toBe(404);
  expect((await refused.json()).error.message).toContain(unknown);

  // All of them.
  await page.getByTestId('trace-search').fill('');
  const count = (await (await request.get('/api/traces', { headers: AUTH })).json()).traces.length;
  expect(count).toBeGreaterThan(0);
  await page.getByTestId('trace-delete-all').click();
  await confirmDelete(page, `Delete all ${count === 1 ? '1 captured trace' : `${count.toLocaleString('en-US')} captured traces`}?`);
  await expect(page.getByText('No traces yet: run a scenario.')).toBeVisible();
  expect((await (await request.get('/api/traces', { headers: AUTH })).json()).traces).toEqual([]);
  expect(savedFiles()).toEqual(savedBefore);
  await expect(page.getByTestId('saved-row').first()).toBeVisible();
});
