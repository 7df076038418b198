import { expect, test, type APIRequestContext } from '@playwright/test';
import { AUTH, expectRunStatus, runScenarioFromHome, spanRowsWhere } from './helpers';
import { isPost, pressStepKey, startFromHome, stopStartedRunsAfterEach, toolPause, expectDecisionAccepted } from './stepping-helpers';

/**
 * Stop on a run whose tool hangs (tools/scenarios/tool-hangs.json: generateReport waits an hour;
 * this server's tool limit is 8 s): the page shows the run stopped within two seconds of the key
 * or the button — not at the limit, which would fail it — its open tool span ended, and the runner
 * that ran the tool is replaced by a fresh one that takes the next run.
 */
stopStartedRunsAfterEach();

/** Stopped within this long: far below the 8 s tool limit of the e2e server (playwright.config.ts). */
const AT_ONCE_MS = 2_000;

interface RunnerAnswer {
  runner: { state: string; runners?: { pid?: number }[] };
}

async function runnerPids(request: APIRequestContext): Promise<(number | undefined)[]> {
  const answer = await request.get('/api/runner', { headers: AUTH });
  return ((await answer.json()) as RunnerAnswer).runner.runners?.map((runner) => runner.pid) ?? [];
}

async function pidOfRun(request: APIRequestContext, runId: string): Promise<number | undefined> {
  const answer = await request.get(`/api/runs/${runId}`, { headers: AUTH });
  return ((await answer.json()) as { run: { runner?: { pid?: number } } }).run.runner?.pid;
}

test('stop: key X on a run whose tool hangs — stopped at once, the tool span ended, and a fresh runner takes the next run', async ({ page, request }) => {
  const runId = await runScenarioFromHome(page, 'tool-hangs');
  const tool = spanRowsWhere(page, { role: 'tool', label: 'generateReport' });
  await expect(tool).toHaveAttribute('data-outcome', 'running');
  const pid = await pidOfRun(request, runId);
  expect(typeof pid).toBe('number');
  // A run that is not stepped has Stop in its header, key X included.
  await expect(page.getByTestId('run-stop')).toBeEnabled();
  await expect(page.getByTestId('run-stop').locator('kbd')).toHaveText('X');

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const stopped = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/stop$`)));
  await page.keyboard.press('x');
  const answer = await stopped;
  expect(answer.status(), await answer.text()).toBe(200);
  expect(((await answer.json()) as { run: { status: string } }).run.status).toBe('stopped');
  await expectRunStatus(page, 'stopped', AT_ONCE_MS);
  await expect(page.getByTestId('run-status')).toHaveText('stopped');
  await expect(page.getByTestId('run-failure')).toContainText("The run was stopped by the user while tool 'generateReport' (ref report-1) was running");
  await expect(page.getByTestId('run-stop')).toHaveCount(0);
  // The trace says so: the tool's span ended (closed as stopped), nothing is left running.
  await expect(tool).toHaveAttribute('data-outcome', 'error');
  await expect(spanRowsWhere(page, { outcome: 'running' })).toHaveCount(0);

  // The runner whose tool code was left running is replaced; the next run finishes on another.
  await expect.poll(async () => (await runnerPids(request)).includes(pid), { timeout: 30_000 }).toBe(false);
  const next = await runScenarioFromHome(page, 'plain-tool-round');
  await expectRunStatus(page, 'finished');
  expect(await pidOfRun(request, next)).not.toBe(pid);
});

test('stop: the Stop button of a stepped run, continued into the hanging tool — stopped at once, drawn as a failed tool', async ({ page }) => {
  const runId = await startFromHome(page, 'tool-hangs', { kind: 'breakpoints', tools: ['generateReport'] });
  const card = toolPause(page, 'generateReport');
  await expect(card).toHaveCount(1);
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-continue'));
  await expect(page.getByTestId('step-state')).toHaveText(' — running');

  const stopped = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/stop$`)));
  await page.getByTestId('stop-button').click();
  expect((await stopped).status()).toBe(200);
  await expectRunStatus(page, 'stopped', AT_ONCE_MS);
  await expect(page.getByTestId('step-state')).toHaveText(' — the run is stopped');
  await expect(page.getByTestId('stop-button')).toBeDisabled();
  const node = page.locator('[data-testid=run-graph] [data-testid=graph-node][data-kind="tool-call"]');
  await expect(node).toHaveAttribute('data-tone', 'error');
  await expect(node.getByTestId('graph-node-status')).toHaveText('failed');
});

test('stop: key X on a run paused at a step — stopped, the runtime’s own ending (no tool was running)', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(page.locator('[data-testid=pause-card][data-kind=model]')).toHaveCount(1);
  await pressStepKey(page, runId, 'X');
  await expectRunStatus(page, 'stopped', AT_ONCE_MS);
  await expect(page.getByTestId('run-failure')).toContainText('The run was stopped by the user while paused.');
});
