import { expect, test } from '@playwright/test';
import { expectRunStatus, runScenarioFromHome } from './helpers';

/**
 * genkit Go scenarios (issue 13) run from the home page by the real genkit Go module in the Go
 * runner the server builds on first use: an interrupt drawn as a pause (its tool span ended
 * genkit:state=error), answered by the scenario's scripted restart, the resume linked to it.
 */
test('genkit go: run go-restart-after-approval, see the interrupt as a pause, resume it with the scripted restart', async ({ page }) => {
  test.setTimeout(360_000);
  await runScenarioFromHome(page, 'go-restart-after-approval', 'graph');
  await expectRunStatus(page, 'interrupted', 300_000);
  const pause = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]');
  await expect(pause).toHaveCount(1);
  await expect(pause).toHaveAttribute('data-tone', 'interrupted');
  await pause.click();
  await expect(page.getByTestId('pause-explained')).toContainText('genkit:state=error');
  const resumed = page.waitForResponse((response) => /\/api\/runs\/[^/]+\/resume$/.test(new URL(response.url()).pathname));
  await page.getByTestId('resume-scripted').click();
  expect((await resumed).status()).toBeLessThan(300);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('approved by alice');
  await expect(page.getByTestId('graph-summary')).toContainText('answered: 0 respond, 1 restart');
});

test('genkit go: the home page lists the Go scenarios, run straight through', async ({ page }) => {
  await page.goto('/');
  const card = page.locator('[data-testid=scenario-card][data-scenario="go-respond-to-question"]');
  await expect(card.getByTestId('runtime-go-respond-to-question')).toContainText('genkit Go');
  await expect(card.getByTestId('step-go-respond-to-question')).toHaveCount(0);
});
