/**
 * attach: Loopscope started with the example genkit JS app (what `loopscope start -- node
 * --import tsx app.ts` sets up: LOOPSCOPE_APP_COMMAND + LOOPSCOPE_APP_CWD), the flow run from the
 * Apps page's schema form, its interrupt answered from the trace's workbench — in the app.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startSecondServer, stopSecondServers, TOKEN } from './helpers';

const appDir = path.join(process.cwd(), 'examples/apps/genkit-js');

test.afterEach(async () => {
  await stopSecondServers();
});

test('attach: run an attached app’s flow from its form and answer its interrupt in the app', async ({ browser }) => {
  const markers = path.join(os.tmpdir(), `loopscope-e2e-markers-${process.pid}`);
  rmSync(markers, { recursive: true, force: true });
  const server = await startSecondServer({
    env: { LOOPSCOPE_APP_COMMAND: JSON.stringify([process.execPath, '--import', 'tsx', 'app.ts']), LOOPSCOPE_APP_CWD: appDir, EXAMPLE_MARKERS_DIR: markers },
  });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/#token=${TOKEN}`);
  await page.getByTestId('apps-link').click();
  const runtime = page.getByTestId('attached-runtime');
  await expect(runtime).toContainText('trip-planner', { timeout: 30_000 });
  await page.getByRole('button', { name: 'flow: planTrip' }).click();
  const form = page.getByTestId('run-form-/flow/planTrip');
  // An error that names the field: city is required.
  await form.getByRole('button', { name: 'Run planTrip' }).click();
  await expect(form.getByRole('alert')).toContainText('city is required.');
  await form.getByLabel('city').fill('Rome');
  await form.getByLabel('nights').fill('3');
  await form.getByLabel('budget').selectOption('high');
  await form.getByRole('button', { name: 'Add to travelers' }).click();
  await form.getByLabel('travelers[0].name').fill('Ada');
  await form.getByLabel('travelers[0].age').fill('36');
  const ran = page.waitForResponse((response) => response.url().endsWith('/api/runs') && response.request().method() === 'POST');
  await form.getByLabel('travelers[0].age').press('Enter');
  expect((await ran).status()).toBe(200);
  const result = page.getByTestId('action-result');
  await expect(result).toHaveAttribute('data-outcome', 'interrupted');
  await result.getByRole('link', { name: 'Open the trace to answer it' }).click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}/);
  // The workbench answers bookTrip#b1 by restart: the app's own tool runs and writes its marker.
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const request = page.locator('[data-testid=workbench-request][data-request="bookTrip#b1"]');
  await request.getByTestId('workbench-mode-restart').check();
  await request.getByTestId('workbench-resumed').fill('{"confirmedBy": "e2e"}');
  const confirm = page.getByTestId('workbench-confirm');
  if (await confirm.isVisible().catch(() => false)) await confirm.check();
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume') && response.request().method() === 'POST');
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await expect.poll(() => (existsSync(markers) ? readdirSync(markers) : []), { timeout: 20_000 }).toContain('booked-BK-ROME-3.json');
  await context.close();
});
