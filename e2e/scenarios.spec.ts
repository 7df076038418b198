import { expect, test, type Page } from '@playwright/test';
import { expectRunStatus, runScenarioFromHome, spanRows, spanRowsWhere } from './helpers';

const PAUSED = 'paused — waiting for an answer';
const RESTARTED = 'ok — restarted by a resume';

/** No span in the tree is shown as failed (an interrupt is a pause, not a failure). */
async function expectNoFailedSpan(page: Page) {
  await expect(page.locator('[data-testid=span-tree] [data-testid=span-status]').filter({ hasText: /^\s*failed\s*$/ })).toHaveCount(0);
  await expect(spanRowsWhere(page, { outcome: 'error' })).toHaveCount(0);
}

async function clickResume(page: Page) {
  const resumeButton = page.getByTestId('resume-scripted');
  await expect(resumeButton).toBeVisible();
  await expect(resumeButton).toHaveText(/Resume with the scenario.s answer/);
  const resumed = page.waitForResponse((response) => /\/api\/runs\/[^/]+\/resume$/.test(response.url()) && response.request().method() === 'POST');
  await resumeButton.click();
  const response = await resumed;
  expect(response.status(), `resume answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
}

test.describe('running each scenario from the home page', () => {
  test('the user runs plain-tool-round and sees two generates, two model calls and two ok tools', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('run-text')).toContainText('Lisbon');
    await expect(spanRows(page)).toHaveCount(6);
    await expect(spanRowsWhere(page, { role: 'generate' })).toHaveCount(2);
    await expect(spanRowsWhere(page, { role: 'model', label: 'scripted/plain-tool-round' })).toHaveCount(2);
    await expect(spanRowsWhere(page, { role: 'tool' })).toHaveCount(2);
    for (const tool of ['getWeather', 'convertTemperature']) {
      const row = spanRowsWhere(page, { role: 'tool', label: tool });
      await expect(row, tool).toHaveCount(1);
      await expect(row).toHaveAttribute('data-outcome', 'ok');
      await expect(row.getByTestId('span-status')).toHaveText('ok');
    }
  });

  test('the user runs restart-after-approval, sees the transfer paused, resumes with the scripted approval and sees it finish', async ({ page }) => {
    await runScenarioFromHome(page, 'restart-after-approval');
    await expectRunStatus(page, 'interrupted');
    await expect(page.getByTestId('run-status')).toContainText(PAUSED);
    await expect(page.getByTestId('pause-banner')).toBeVisible();
    await expect(page.getByTestId('run-failure')).toHaveCount(0);

    const transfers = spanRowsWhere(page, { role: 'tool', label: 'transferMoney' });
    await expect(transfers).toHaveCount(1);
    await expect(transfers.first()).toHaveAttribute('data-outcome', 'interrupted');
    await expect(transfers.first().getByTestId('span-status')).toHaveText(PAUSED);
    await expectNoFailedSpan(page);

    await transfers.first().click();
    await expect(transfers.first()).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('interrupt-note')).toBeVisible();
    await expect(page.getByTestId('detail-interrupt')).toContainText('approval-required');

    await clickResume(page);
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('pause-banner')).toHaveCount(0);
    await expect(page.getByTestId('run-text')).toContainText('alice');
    await expect(transfers).toHaveCount(2);
    await expect(transfers.getByTestId('span-status').filter({ hasText: RESTARTED })).toHaveCount(1);
    await expect(transfers.getByTestId('span-status').filter({ hasText: PAUSED })).toHaveCount(1);
  });

  test('the user runs respond-to-question, answers the askUser pause with the scripted respond and sees no second askUser run', async ({ page }) => {
    await runScenarioFromHome(page, 'respond-to-question');
    await expectRunStatus(page, 'interrupted');
    await expect(page.getByTestId('pause-banner')).toBeVisible();
    const asks = spanRowsWhere(page, { role: 'tool', label: 'askUser' });
    await expect(asks).toHaveCount(1);
    await expect(asks.first()).toHaveAttribute('data-outcome', 'interrupted');
    await expect(asks.first().getByTestId('span-status')).toHaveText(PAUSED);
    await expectNoFailedSpan(page);

    await clickResume(page);
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('run-text')).toContainText('Booked your seat (Window)');
    // The resume's model call arrives; respond runs no tool, so askUser stays at one row.
    await expect(spanRowsWhere(page, { role: 'model' })).toHaveCount(2);
    await expect(asks).toHaveCount(1);
  });

  test('the user runs parallel-pending-output, resumes, and sees only transferMoney run again', async ({ page }) => {
    await runScenarioFromHome(page, 'parallel-pending-output');
    await expectRunStatus(page, 'interrupted');
    const lookups = spanRowsWhere(page, { role: 'tool', label: 'lookupOrder' });
    const transfers = spanRowsWhere(page, { role: 'tool', label: 'transferMoney' });
    await expect(lookups).toHaveCount(1);
    await expect(lookups.first()).toHaveAttribute('data-outcome', 'ok');
    await expect(transfers).toHaveCount(1);
    await expect(transfers.first()).toHaveAttribute('data-outcome', 'interrupted');
    await expect(transfers.first().getByTestId('span-status')).toHaveText(PAUSED);

    await clickResume(page);
    await expectRunStatus(page, 'finished');
    await expect(transfers).toHaveCount(2);
    await expect(transfers.getByTestId('span-status').filter({ hasText: RESTARTED })).toHaveCount(1);
    await expect(spanRowsWhere(page, { role: 'model' })).toHaveCount(2);
    await expect(lookups).toHaveCount(1);
  });

  test('the user runs tool-throws and sees the run failed with the inventory error on checkInventory', async ({ page }) => {
    await runScenarioFromHome(page, 'tool-throws');
    await expectRunStatus(page, 'failed');
    await expect(page.getByTestId('run-failure')).toContainText('Inventory service returned 503');
    const row = spanRowsWhere(page, { role: 'tool', label: 'checkInventory' });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-outcome', 'error');
    await expect(row.getByTestId('span-status')).toHaveText('failed');
    await expect(page.getByTestId('pause-banner')).toHaveCount(0);
  });

  test('the user runs unknown-tool and sees the run failed naming cancelSubscription, with no tool span', async ({ page }) => {
    await runScenarioFromHome(page, 'unknown-tool');
    await expectRunStatus(page, 'failed');
    await expect(page.getByTestId('run-failure')).toContainText('cancelSubscription');
    await expect(spanRowsWhere(page, { role: 'model' })).toHaveCount(1);
    await expect(spanRowsWhere(page, { role: 'tool' })).toHaveCount(0);
  });

  test('the user runs multi-round-research and sees 14 spans: five model calls and four tools', async ({ page }) => {
    await runScenarioFromHome(page, 'multi-round-research');
    await expectRunStatus(page, 'finished');
    await expect(spanRows(page)).toHaveCount(14);
    await expect(spanRowsWhere(page, { role: 'model' })).toHaveCount(5);
    await expect(spanRowsWhere(page, { role: 'tool' })).toHaveCount(4);
    await expect(spanRowsWhere(page, { role: 'generate' })).toHaveCount(5);
    await expect(spanRowsWhere(page, { outcome: 'error' })).toHaveCount(0);
  });

  test('the user runs slow-tool and watches generateReport show as running, then ok', async ({ page }) => {
    await runScenarioFromHome(page, 'slow-tool');
    const report = spanRowsWhere(page, { role: 'tool', label: 'generateReport' });
    await expect(report).toHaveAttribute('data-outcome', 'running');
    await expect(report.getByTestId('span-status')).toHaveText('running…');
    // The tool takes 5 s (inside the e2e tool limit of 8000 ms); its row turns ok when it ends.
    await expect(report).toHaveAttribute('data-outcome', 'ok', { timeout: 20_000 });
    await expectRunStatus(page, 'finished');
    await expect(report).toHaveCount(1);
    await expect(report.getByTestId('span-status')).toHaveText('ok');
  });

  test('the user runs tool-hangs and sees it fail at the 8000 ms tool limit', async ({ page }) => {
    await runScenarioFromHome(page, 'tool-hangs');
    await expectRunStatus(page, 'failed', 30_000);
    await expect(page.getByTestId('run-failure')).toContainText('did not finish within 8000 ms');
  });

  test('the user runs tool-exits-process, sees it fail with exit code 3, and the runner comes back for the next run', async ({ page }) => {
    await runScenarioFromHome(page, 'tool-exits-process');
    await expectRunStatus(page, 'failed');
    await expect(page.getByTestId('run-failure')).toContainText('exited with code 3');

    await runScenarioFromHome(page, 'plain-tool-round');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('run-text')).toContainText('Lisbon');
  });
});
