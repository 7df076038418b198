/**
 * attach, stepping: Loopscope started with the example genkit JS app (`plugins: [loopscope()]`),
 * a generate started from the Apps page's Generate form in Step mode, stepped on the run page —
 * the model pause, both tool pauses, a hand answer the app's own schema refuses and then takes,
 * bookTrip's interrupt at the end — and that interrupt answered by a restart in the workbench,
 * which runs in the app (its marker file).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectRunStatus, startSecondServer, stopSecondServers, TOKEN, type SecondServer } from './helpers';
import { expectDecisionAccepted, clickAndWaitDecision, ghosts, graphNodes, isPost, modelPause, openSection, pauseCards, pressStepKey, toolPause } from './stepping-helpers';

const appDir = path.join(process.cwd(), 'examples/apps/genkit-js');

test.afterEach(async () => {
  await stopSecondServers();
});

async function startWithApp(options: { markers: string; env?: Record<string, string> }): Promise<SecondServer> {
  rmSync(options.markers, { recursive: true, force: true });
  return startSecondServer({
    env: { LOOPSCOPE_APP_COMMAND: JSON.stringify([process.execPath, '--import', 'tsx', 'app.ts']), LOOPSCOPE_APP_CWD: appDir, EXAMPLE_MARKERS_DIR: options.markers, ...options.env },
  });
}

/** Opens the Apps page through the banner URL and waits for the example app's Generate form. */
async function openGenerateForm(page: Page, server: SecondServer) {
  await page.goto(`${server.baseUrl}/#token=${TOKEN}`);
  await page.getByTestId('apps-link').click();
  await expect(page.getByTestId('attached-runtime')).toContainText('trip-planner', { timeout: 30_000 });
  const form = page.getByTestId('generate-form');
  await expect(form).toBeVisible();
  return form;
}

test('attach: step an attached app’s generate from the Generate form — pauses, a hand answer the app refuses then takes, its interrupt answered in the app', async ({ browser }) => {
  test.setTimeout(120_000);
  const markers = path.join(os.tmpdir(), `loopscope-e2e-step-markers-${process.pid}`);
  const server = await startWithApp({ markers });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const form = await openGenerateForm(page, server);

  // Named problems first: no prompt.
  await form.getByRole('button', { name: 'Generate' }).click();
  await expect(form.getByTestId('generate-problems')).toContainText('prompt: write what to ask the model.');
  await form.getByLabel('Model', { exact: true }).selectOption('demo/trip-model');
  await form.getByRole('checkbox', { name: 'getWeather' }).check();
  await form.getByRole('checkbox', { name: 'bookTrip' }).check();
  await form.getByLabel('Prompt').fill('Plan a trip to Kyoto for 4 nights');
  await form.getByRole('radio', { name: /^Step/ }).check();
  // Enter in a field submits the form (from the Step radio here).
  const started = page.waitForResponse(isPost(/^\/api\/runs$/));
  await form.getByRole('radio', { name: /^Step/ }).press('Enter');
  const response = await started;
  expect(response.status(), await response.text()).toBe(202);
  const body = response.request().postDataJSON() as { input: { tools: string[] } };
  expect(body).toMatchObject({
    action: '/util/generate',
    input: { model: 'demo/trip-model', messages: [{ role: 'user', content: [{ text: 'Plan a trip to Kyoto for 4 nights' }] }] },
    mode: { kind: 'step' },
  });
  // In the app's order, as the form lists them.
  expect([...body.input.tools].sort()).toEqual(['bookTrip', 'getWeather']);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  await expect(page.locator('h1')).toContainText('trip-planner: generate with demo/trip-model');

  // The model pause, drawn where the run stands.
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(page).first()).toContainText('paused before model call 1');
  // Step: the model asks for both tools; genkit runs them side by side, so both pause.
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);
  await expect(toolPause(page, 'getWeather')).toHaveCount(1);
  await expect(toolPause(page, 'bookTrip')).toHaveCount(1);
  // The app's tools are the breakpoints the run can set (not tools/'s).
  await expect(page.getByTestId('bp-edit-tool-getWeather')).toBeVisible();
  await expect(page.getByTestId('bp-edit-tool-bookTrip')).toBeVisible();

  // getWeather answered by hand: first without tempC — the app checks its own output schema and refuses.
  const weather = toolPause(page, 'getWeather');
  await expect(weather.locator('pre.pause-input')).toContainText('"Kyoto"');
  await openSection(weather, 'Answer without running');
  await weather.getByTestId('pause-output').fill('{"city": "Kyoto"}');
  const refused = await clickAndWaitDecision(page, runId, weather.getByTestId('pause-answer'));
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  await expect(weather.getByTestId('pause-error')).toContainText('The app refused the decision');
  await expect(weather.getByTestId('pause-error')).toContainText('tempC');
  await expect(pauseCards(page)).toHaveCount(2);
  await weather.getByTestId('pause-output').fill('{"city": "Kyoto", "tempC": 9, "sky": "rain"}');
  await expectDecisionAccepted(page, runId, weather.getByTestId('pause-answer'));
  await expect(pauseCards(page)).toHaveCount(1);

  // bookTrip goes on: the app's own tool interrupts for a human's confirmation — the run ends interrupted.
  await expectDecisionAccepted(page, runId, toolPause(page, 'bookTrip').getByTestId('pause-continue'));
  await expectRunStatus(page, 'interrupted');
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  await expect(pauseCards(page)).toHaveCount(0);
  const interrupt = graphNodes(page, 'tool-interrupt').filter({ hasText: 'bookTrip' });
  await expect(interrupt).toHaveCount(1);
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather' }).getByTestId('graph-node-status')).toContainText('answered by hand');

  // The workbench on the run page answers it by restart — in the app: its bookTrip books and writes the marker.
  await interrupt.click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const request = page.locator('[data-testid=workbench-request][data-request="bookTrip#b1"]');
  await request.getByTestId('workbench-mode-restart').check();
  await request.getByTestId('workbench-resumed').fill('{"confirmedBy": "e2e-step"}');
  const confirm = page.getByTestId('workbench-confirm');
  if (await confirm.isVisible().catch(() => false)) await confirm.check();
  const resumed = page.waitForResponse(isPost(/^\/api\/resume$/));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await expect.poll(() => (existsSync(markers) ? readdirSync(markers) : []), { timeout: 20_000 }).toContain('booked-BK-KYOTO-4.json');
  // The stepped run is answered by exactly one run, which finished with the booking.
  await expectRunStatus(page, 'answered');
  const answeredBy = page.getByTestId('answered-by').getByRole('link');
  await expect(answeredBy).toHaveCount(1);
  await answeredBy.click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('BK-KYOTO-4');
  await context.close();
});

test('attach: step through an attached app’s own flow from its form — the generate inside planTrip pauses, and Continue runs it to its interrupt', async ({ browser }) => {
  test.setTimeout(120_000);
  const markers = path.join(os.tmpdir(), `loopscope-e2e-flow-step-markers-${process.pid}`);
  const server = await startWithApp({ markers });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await openGenerateForm(page, server);
  await page.getByRole('button', { name: 'flow: planTrip' }).click();
  const form = page.getByTestId('run-form-/flow/planTrip');
  await form.getByLabel('city').fill('Lima');
  const started = page.waitForResponse(isPost(/^\/api\/runs$/));
  await form.getByRole('button', { name: 'Step through planTrip' }).click();
  const response = await started;
  expect(response.status(), await response.text()).toBe(202);
  expect(response.request().postDataJSON()).toMatchObject({ action: '/flow/planTrip', input: { city: 'Lima' }, mode: { kind: 'step' } });
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  await expect(page.locator('h1')).toContainText('trip-planner: flow planTrip');
  // The app's own ai.generate inside the flow pauses before its model call…
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 1');
  await pressStepKey(page, runId, 'S');
  // …and before both tools it asks for.
  await expect(pauseCards(page)).toHaveCount(2);
  await expect(toolPause(page, 'bookTrip')).toHaveCount(1);
  // Continue: on to the end — bookTrip interrupts, as the flow does unstepped.
  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'interrupted');
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(graphNodes(page, 'tool-interrupt').filter({ hasText: 'bookTrip' })).toHaveCount(1);
  await context.close();
});

test('attach: an app without the Loopscope plugin — the Generate form says so, Step is refused with the server’s sentence, Run answers with its trace', async ({ browser }) => {
  test.setTimeout(90_000);
  const markers = path.join(os.tmpdir(), `loopscope-e2e-noplugin-markers-${process.pid}`);
  const server = await startWithApp({ markers, env: { EXAMPLE_WITHOUT_LOOPSCOPE: '1' } });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const form = await openGenerateForm(page, server);
  await expect(form.getByTestId('generate-no-plugin')).toContainText('plugins: [loopscope()]');
  await form.getByRole('checkbox', { name: 'getWeather' }).check();
  await form.getByRole('checkbox', { name: 'bookTrip' }).check();
  await form.getByLabel('Prompt').fill('Plan a trip to Oslo for 2 nights');
  await form.getByRole('radio', { name: /^Step/ }).check();
  const refused = page.waitForResponse(isPost(/^\/api\/runs$/));
  // Ctrl+Enter in the prompt submits (a plain Enter there is a new line).
  await form.getByLabel('Prompt').press('Control+Enter');
  expect((await refused).status()).toBe(409);
  await expect(form.getByTestId('generate-error')).toContainText('has no Loopscope step plugin: add `plugins: [loopscope()]`');
  await expect(page).toHaveURL(/\/apps$/);
  // Run needs no plugin: the generate runs in the app and answers when it ended (bookTrip interrupts), with its trace.
  await form.getByRole('radio', { name: /^Run/ }).check();
  const ranPost = page.waitForResponse(isPost(/^\/api\/runs$/));
  await form.getByTestId('generate-submit').click();
  const ran = await ranPost;
  expect(ran.status()).toBe(200);
  expect(ran.request().postDataJSON()).not.toHaveProperty('mode');
  const result = form.getByTestId('action-result');
  await expect(result).toHaveAttribute('data-outcome', 'interrupted');
  await result.getByRole('link', { name: 'Open the trace to answer it' }).click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}/);
  await expect(graphNodes(page, 'tool-interrupt').filter({ hasText: 'bookTrip' })).toHaveCount(1);
  await context.close();
});
