import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, startSecondServer, stopSecondServers } from './helpers';

/**
 * AI SDK pauses answered by hand in the workbench (issue 12, item 3): approve and deny (with a
 * reason) an approval request, respond for a handed-back tool — checked by the SDK's rules as
 * the user types, the exact next `messages` shown, then run by real `generateText` in the
 * runner — from a live run, and from a saved trace on a fresh server that never saw the run.
 */

test.afterEach(async () => {
  await stopSecondServers();
});

async function openWorkbench(page: Page): Promise<void> {
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  await expect(page.getByTestId('resume-workbench')).toContainText('Vercel AI SDK');
}

async function pressResume(page: Page): Promise<void> {
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await page.getByTestId('workbench-result').getByRole('link').click();
}

test('ai sdk: approve a live run’s pending call by hand — the next messages carry the approval, the answer run finishes', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-approval-approved', 'graph');
  await expectRunStatus(page, 'interrupted');
  await openWorkbench(page);
  const request = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
  await expect(request).toHaveAttribute('data-waiting-for', 'approval');
  await expect(request.getByTestId('workbench-mode-approve')).toBeChecked();
  await request.getByTestId('workbench-reason').fill('known payee');
  await expect(page.getByTestId('workbench-ok')).toHaveText('Vercel AI SDK would accept this answer.');
  const payload = page.getByTestId('workbench-payload');
  await expect(payload).toContainText('"type": "tool-approval-request"');
  await expect(payload).toContainText('"type": "tool-approval-response"');
  await expect(payload).toContainText('known payee');
  await pressResume(page);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Sent 500 USD to Bob.');
});

test('ai sdk: deny with a reason by hand, and respond to a handed-back tool with a result its schema refuses, then one it takes', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-approval-denied', 'graph');
  await expectRunStatus(page, 'interrupted');
  await openWorkbench(page);
  const transfer = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
  await transfer.getByTestId('workbench-mode-deny').check();
  await transfer.getByTestId('workbench-reason').fill('Bob is not a known payee.');
  await expect(page.getByTestId('workbench-payload')).toContainText('"approved": false');
  await expect(page.getByTestId('workbench-payload')).toContainText('Bob is not a known payee.');
  await pressResume(page);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('graph-summary')).toContainText('0 tool');

  await runScenarioFromHome(page, 'ai-sdk-handed-back-tool', 'graph');
  await expectRunStatus(page, 'interrupted');
  await openWorkbench(page);
  const ask = page.locator('[data-testid=workbench-request][data-request="askUser#ask-1"]');
  await expect(ask).toHaveAttribute('data-waiting-for', 'result');
  await expect(ask.getByTestId('workbench-mode-respond')).toBeChecked();
  await ask.getByTestId('workbench-mode-approve').check();
  await expect(page.getByTestId('workbench-error').first()).toContainText('is a handed-back tool (no execute)');
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  await ask.getByTestId('workbench-mode-respond').check();
  await ask.getByTestId('workbench-output').fill('{"answer": 7}');
  await expect(page.getByTestId('workbench-error')).toContainText("does not match the tool's output schema");
  await ask.getByTestId('workbench-output').fill('{"answer": "Window"}');
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  await expect(page.getByTestId('workbench-payload')).toContainText('"type": "tool-result"');
  await pressResume(page);
  await expectRunStatus(page, 'finished');
});

test('ai sdk: approve and deny a saved trace on a fresh server — each answer a branch beside the recorded one, the file untouched', async ({ page }) => {
  const file = 'ai-sdk-approval-approved.json';
  const savedPath = path.join(process.cwd(), E2E_TRACES_DIR, file);
  const before = readFileSync(savedPath, 'utf8');
  const server = await startSecondServer();
  try {
    await openHomeWithReadyRunner(page, server.baseUrl);
    for (const mode of ['approve', 'deny'] as const) {
      await page.goto(`${server.baseUrl}/saved/${file}`);
      await openWorkbench(page);
      const request = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
      await request.getByTestId(`workbench-mode-${mode}`).check();
      if (mode === 'deny') await request.getByTestId('workbench-reason').fill('not today');
      await expect(page.getByTestId('workbench-ok')).toBeVisible();
      await pressResume(page);
      expect(new URL(page.url()).origin).toBe(server.baseUrl);
      await expectRunStatus(page, 'finished');
      // Drawn with the saved file: its recorded approval and this answer are two branches of one pause.
      await expect(page.getByTestId('graph-summary')).toContainText(
        mode === 'approve' ? '3 generate(s) · 3 model · 2 tool · 1 interrupt(s) · answered: 0 respond, 2 restart' : '3 generate(s) · 3 model · 1 tool · 1 interrupt(s) · answered: 1 respond, 1 restart',
      );
    }
    expect(readFileSync(savedPath, 'utf8')).toBe(before);
  } finally {
    await server.stop();
  }
});
