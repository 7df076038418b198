/**
 * The loopscope/ai-sdk package in a developer's own AI SDK app (issue 39): Loopscope started with
 * the example app (`examples/apps/ai-sdk`, `node --import tsx app.ts`: an HTTP service whose
 * `POST /trip` runs its own generateText loop), the app's mode chosen on the Apps page before
 * the app makes its call, the call stepped on its run page — the model call answered by hand, the
 * tool's input edited (the app's own schema refusing a bad one first) — and the approval it stops
 * for answered from the workbench back into the app, which finishes its loop with the answer: the
 * app's own printed result, and the answer edge in the run's graph.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectRunStatus, freePort, startSecondServer, stopSecondServers, TOKEN, type SecondServer } from './helpers';
import { clickAndWaitDecision, expectDecisionAccepted, ghosts, graphNodes, isPost, modelPause, openSection, pauseCards, pressStepKey, toolPause } from './stepping-helpers';

const appDir = path.join(process.cwd(), 'examples/apps/ai-sdk');

test.use({ viewport: { width: 1440, height: 900 } });

test.afterEach(async () => {
  await stopSecondServers();
});

async function startWithApp(options: { markers: string; appPort: number }): Promise<SecondServer> {
  rmSync(options.markers, { recursive: true, force: true });
  return startSecondServer({
    env: { LOOPSCOPE_APP_COMMAND: JSON.stringify([process.execPath, '--import', 'tsx', 'app.ts']), LOOPSCOPE_APP_CWD: appDir, EXAMPLE_MARKERS_DIR: options.markers, EXAMPLE_PORT: String(options.appPort) },
  });
}

/** Opens the Apps page through the banner URL and waits for the app's section (its hello at startup). */
async function openAppSection(page: Page, server: SecondServer) {
  await page.goto(`${server.baseUrl}/#token=${TOKEN}`);
  await page.getByTestId('apps-link').click();
  const section = page.locator('[data-testid=ai-sdk-app][data-app="trip-agent"]');
  await expect(section).toBeVisible({ timeout: 30_000 });
  return section;
}

/** What the user of the app does: asks it for a trip (its own HTTP endpoint), which runs its agent loop. */
function askTheApp(appPort: number, request: string): Promise<{ status: number; body: { text?: string; calls?: number; error?: string } }> {
  return fetch(`http://127.0.0.1:${appPort}/trip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request }) }).then(async (response) => ({ status: response.status, body: (await response.json()) as { text?: string } }));
}

test('package: an AI SDK app’s own generateText stepped from the browser — a hand-written model answer, an edited tool input — and its approval answered from the workbench back into the app', async ({ browser }) => {
  test.setTimeout(150_000);
  const markers = path.join(os.tmpdir(), `loopscope-e2e-ai-sdk-app-markers-${process.pid}`);
  const appPort = await freePort();
  const server = await startWithApp({ markers, appPort });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();

  // The app said hello when it started: it is listed, in Run mode, with no call yet. Step it.
  const section = await openAppSection(page, server);
  await expect(section).toContainText('No call yet');
  const modeSet = page.waitForResponse(isPost(/^\/api\/runtimes\/ai-sdk-mode$/));
  // A controlled radio: it shows the server's mode, so it is checked once the POST is answered.
  await section.getByRole('radio', { name: /^Step/ }).click();
  expect((await modeSet).status()).toBe(200);
  await expect(section.getByRole('radio', { name: /^Step/ })).toBeChecked();

  // The app's user asks for a trip: the app's own generateText becomes a run, paused before its first model call.
  const answered = askTheApp(appPort, 'Plan a trip to Kyoto for 4 nights');
  const runLink = section.getByTestId('ai-sdk-app-runs').getByRole('link', { name: 'trip-agent: generateText with trip-model' });
  await expect(runLink).toHaveCount(1, { timeout: 20_000 });
  await runLink.click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  await expect(page.locator('h1')).toContainText('trip-agent: generateText with trip-model');
  const firstModel = modelPause(page);
  await expect(firstModel.locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(page).first()).toContainText('paused before model call 1');

  // The model's answer replaced by hand: a getWeather call the model did not make.
  await openSection(firstModel, "Replace the model's answer");
  await firstModel.getByTestId('pause-parts').fill('[{"toolRequest":{"name":"getWeather","ref":"weather-by-hand","input":{"city":"Kyoto"}}}]');
  await expectDecisionAccepted(page, runId, firstModel.getByTestId('pause-replace'));

  // The tool pauses before it runs in the app: an empty city is refused by the app's own zod schema, Osaka is taken.
  const weather = toolPause(page, 'getWeather');
  await expect(weather.locator('h3')).toHaveText('Paused before tool getWeather#weather-by-hand');
  await openSection(weather, 'Edit the input');
  const input = weather.getByTestId('pause-input');
  await input.fill('{"city": ""}');
  const refused = await clickAndWaitDecision(page, runId, weather.getByTestId('pause-edit'));
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  await expect(weather.getByTestId('pause-error')).toContainText('The app refused the decision');
  await expect(weather.getByTestId('pause-error')).toContainText('city');
  await input.fill('{"city": "Osaka"}');
  await expectDecisionAccepted(page, runId, weather.getByTestId('pause-edit'));

  // Model call 2 goes on: the model asks to book the trip, which needs an approval — the call stops there.
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
  await pressStepKey(page, runId, 'S');
  await expectRunStatus(page, 'interrupted');
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(page.getByTestId('pause-banner')).toContainText('an approval to give');
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-by-hand' })).toHaveCount(1);

  // The app waits for the answer in Loopscope: the workbench sends it there.
  const interrupt = graphNodes(page, 'tool-interrupt').filter({ hasText: 'bookTrip' });
  await expect(interrupt).toHaveCount(1);
  await interrupt.click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const workbench = page.getByTestId('resume-workbench');
  await expect(workbench.getByTestId('workbench-sends-to-app')).toContainText('trip-agent');
  const request = workbench.locator('[data-testid=workbench-request][data-request="bookTrip#book-1"]');
  await expect(request).toHaveAttribute('data-waiting-for', 'approval');
  await expect(request.getByTestId('workbench-mode-approve')).toBeChecked();
  await request.getByTestId('workbench-reason').fill('Osaka is fine');
  await expect(workbench.getByTestId('workbench-ok')).toHaveText('Vercel AI SDK would accept this answer.');
  const send = workbench.getByTestId('workbench-resume');
  await expect(send).toHaveText('Send this answer to trip-agent');
  const sent = page.waitForResponse(isPost(/^\/api\/resume$/));
  await send.click();
  expect((await sent).status()).toBe(202);
  await expect(workbench.getByTestId('workbench-result')).toContainText('Sent to trip-agent');

  // The app's next generateText goes on as this run (still in Step mode): Continue runs it to the end.
  await expect(pauseCards(page).first()).toBeVisible();
  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Booked BK-OSAKA-4: Osaka is 15°C and cloudy.');

  // The app's own result: its HTTP answer and its printed line; its tool ran in the app.
  const reply = await answered;
  expect(reply).toEqual({ status: 200, body: { text: 'Booked BK-OSAKA-4: Osaka is 15°C and cloudy.', calls: 2 } });
  expect(existsSync(markers) ? readdirSync(markers) : []).toContain('booked-BK-OSAKA-4.json');
  await expect.poll(() => server.output()).toContain('[app] trip-agent answered (2 call(s)): Booked BK-OSAKA-4: Osaka is 15°C and cloudy.');

  // The graph draws both calls, the approval linked to the call that answered it.
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  await expect(page.locator('[data-testid=run-graph] .react-flow__edge[data-id*="=>"]')).toHaveCount(1);
  await expect(graphNodes(page, 'model-call').filter({ hasText: 'loopscope/hand-written' })).toHaveCount(1);
  await context.close();
});
