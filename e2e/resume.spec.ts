import { expect, test } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome } from './helpers';

test('resume: the user answers a saved trace’s interrupt by restart from the workbench and the new run finishes', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/restart-after-approval.json');
  // The saved file holds the interrupt and its recorded answer; answer it again, differently.
  const interrupt = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first();
  await interrupt.click();
  await page.getByTestId('open-workbench').click();
  const request = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
  await expect(request).toHaveAttribute('data-state', 'interrupted');
  await request.getByTestId('workbench-mode-restart').check();
  await request.getByTestId('workbench-resumed').fill('{"approved": true, "approvedBy": "dana"}');
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  await expect(page.getByTestId('workbench-payload')).toContainText('dana');
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await page.getByTestId('workbench-result').getByRole('link').click();
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('500 USD');
});

test('resume: an answer that breaks the output schema shows genkit’s rule and cannot be sent', async ({ page }) => {
  await runScenarioFromHome(page, 'respond-to-question', 'graph');
  await expectRunStatus(page, 'interrupted');
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
  await page.getByTestId('open-workbench').click();
  const request = page.locator('[data-testid=workbench-request][data-request="askUser#seat-1"]');
  await request.getByTestId('workbench-output').fill('{"answer": 5}');
  await expect(page.getByTestId('workbench-error')).toContainText("does not match the tool's output schema");
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  await request.getByTestId('workbench-output').fill('{"answer": "Aisle"}');
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  await expect(page.getByTestId('workbench-resume')).toBeEnabled();
});

test('resume: two alternative answers to one interrupt show as two branches of the graph', async ({ page }) => {
  await runScenarioFromHome(page, 'respond-to-question', 'graph');
  await expectRunStatus(page, 'interrupted');
  const runUrl = page.url();
  const traceLink = page.getByRole('link', { name: 'first generate' });
  const traceHref = await traceLink.getAttribute('href');
  for (const answer of ['Window', 'Aisle']) {
    await page.goto(runUrl);
    await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
    await page.getByTestId('open-workbench').click();
    await page.locator('[data-testid=workbench-request][data-request="askUser#seat-1"]').getByTestId('workbench-output').fill(JSON.stringify({ answer }));
    await expect(page.getByTestId('workbench-payload')).toContainText(answer);
    const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
    await page.getByTestId('workbench-resume').click();
    expect((await resumed).status()).toBe(202);
    await page.getByTestId('workbench-result').getByRole('link').click();
    await expectRunStatus(page, 'finished');
  }
  // The original trace opens with its session: both resumes answer its interrupt. (Links are by
  // content, as genkit's are: earlier identical runs of the scenario may join the session too,
  // so the checks look at this trace's own interrupt.)
  await page.goto(traceHref!);
  const traceId = traceHref!.split('/traces/')[1];
  const interrupt = page.locator(`[data-testid=graph-node][data-kind=tool-interrupt][data-node-id^="${traceId}:"]`);
  await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by respond');
  await expect(page.locator(`[data-testid=run-graph] .react-flow__edge[data-id^="${traceId}:"][data-id*="=>"]`)).toHaveCount(2);
});
