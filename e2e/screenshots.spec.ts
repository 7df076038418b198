import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, spanRows } from './helpers';

const DIR = 'test-results/screenshots';

test('the user looks at the home page, a finished run and a paused run (full-page screenshots)', async ({ page }) => {
  mkdirSync(DIR, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  await openHomeWithReadyRunner(page);
  await expect(page.getByTestId('scenario-card').first()).toBeVisible();
  await page.screenshot({ path: `${DIR}/home.png`, fullPage: true });

  await runScenarioFromHome(page, 'plain-tool-round');
  await expectRunStatus(page, 'finished');
  await expect(spanRows(page)).toHaveCount(6);
  await spanRows(page).filter({ hasText: 'getWeather' }).click();
  await expect(page.getByTestId('span-detail')).toBeVisible();
  await page.screenshot({ path: `${DIR}/run-finished.png`, fullPage: true });

  await runScenarioFromHome(page, 'restart-after-approval');
  await expectRunStatus(page, 'interrupted');
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  await page.locator('[data-testid=span-row][data-outcome=interrupted][data-role=tool]').click();
  await expect(page.getByTestId('interrupt-note')).toBeVisible();
  await page.screenshot({ path: `${DIR}/run-interrupted.png`, fullPage: true });
});
