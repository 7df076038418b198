import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { AUTH, expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, startSecondServer, stopSecondServers } from './helpers';

/**
 * genkit Go scenarios (issue 13) run from the home page by the real genkit Go module in the Go
 * runner the server builds on first use: an interrupt drawn as a pause (its tool span ended
 * genkit:state=error), answered by the scenario's scripted restart, the resume linked to it; a
 * ToolApproval hold told from the tool's own interrupt and approved by hand; both answered from
 * saved traces on a fresh server.
 */

test.afterEach(async () => {
  await stopSecondServers();
});

async function openGoWorkbench(page: Page, nodeLabel?: string): Promise<void> {
  const pauses = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]');
  await (nodeLabel ? pauses.filter({ hasText: nodeLabel }) : pauses).first().click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  await expect(page.getByTestId('resume-workbench')).toContainText('genkit Go');
}

async function pressResume(page: Page): Promise<void> {
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await page.getByTestId('workbench-result').getByRole('link').click();
}
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

test('genkit go: the home page lists the Go scenarios, each to run, step through or run to breakpoints', async ({ page }) => {
  await page.goto('/');
  const card = page.locator('[data-testid=scenario-card][data-scenario="go-respond-to-question"]');
  await expect(card.getByTestId('runtime-go-respond-to-question')).toContainText('genkit Go');
  await expect(card.getByTestId('step-go-respond-to-question')).toBeVisible();
  await expect(card.locator('summary', { hasText: 'Breakpoints…' })).toBeVisible();
});

test('genkit go: answer a live Go interrupt by hand — the workbench checks by genkit Go’s rules, shows Go code, and the answer runs in the Go runner', async ({ page }) => {
  test.setTimeout(360_000);
  await runScenarioFromHome(page, 'go-respond-to-question', 'graph');
  await expectRunStatus(page, 'interrupted', 300_000);
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  await expect(page.getByTestId('resume-workbench')).toContainText('genkit Go');
  const request = page.locator('[data-testid=workbench-request][data-request="askUser#seat-1"]');
  await request.getByTestId('workbench-mode-restart').check();
  await request.getByTestId('workbench-resumed').fill('"yes"');
  await expect(page.getByTestId('workbench-error')).toContainText('tool.Resume: resume data must serialize to a JSON object');
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  await request.getByTestId('workbench-mode-respond').check();
  await request.getByTestId('workbench-output').fill('{"answer": "Aisle"}');
  await expect(page.getByTestId('workbench-ok')).toHaveText('genkit Go would accept this answer.');
  await expect(page.getByTestId('workbench-payload')).toContainText('"interruptResponse": true');
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await page.getByTestId('workbench-result').getByRole('link').click();
  await expectRunStatus(page, 'finished', 120_000);
  await expect(page.getByTestId('run-text')).toContainText('Booked your seat (Aisle)');
});

test('genkit go: compare a scenario on genkit JS and genkit Go — both run, the same outcome, the span and wire differences listed', async ({ page }) => {
  test.setTimeout(360_000);
  await page.goto('/');
  await page.getByTestId('compare-link').click();
  await expect(page).toHaveURL(/\/compare$/);
  const pair = page.locator('[data-testid=compare-pair][data-scenario="go-restart-after-approval"]');
  await expect(pair).toContainText('restart-after-approval');
  await pair.getByTestId('compare-go-restart-after-approval').click();
  const result = page.getByTestId('compare-result');
  await expect(result).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId('compare-same').first()).toContainText('the same status, finish reason, text, interrupts and answers');
  await expect(page.locator('[data-testid=compare-difference][data-aspect=spans]').filter({ hasText: 'tool transferMoney → error' })).toHaveCount(1);
  await expect(page.locator('[data-testid=compare-difference][data-aspect=wire]')).not.toHaveCount(0);
  // Two traces a side: each call's own (genkit Go 1.12 runs a restart inside its resume, as JS).
  await expect(page.getByTestId('compare-trace-link')).toHaveCount(4);
  await page.getByTestId('compare-trace-link').last().click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}/);
});

test('genkit go: POST /api/compare runs local code, so it takes the token and our own origin only', async ({ request }) => {
  expect((await request.post('/api/compare', { data: { scenario: 'go-plain-tool-round' } })).status()).toBe(401);
  expect((await request.post('/api/compare', { headers: { ...AUTH, origin: 'http://evil.example' }, data: { scenario: 'go-plain-tool-round' } })).status()).toBe(403);
  const bad = await request.post('/api/compare', { headers: AUTH, data: { scenario: '../etc' } });
  expect(bad.status()).toBe(400);
});

test('genkit go: a ToolApproval hold from the live run — drawn as held by the hook, a restart without toolApproved refused, approved by hand in the Go runner', async ({ page }) => {
  test.setTimeout(360_000);
  await runScenarioFromHome(page, 'go-tool-approval-approved', 'graph');
  await expectRunStatus(page, 'interrupted', 300_000);
  const held = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]');
  await expect(held).toHaveCount(1);
  await expect(held).toContainText('held by ToolApproval');
  await held.click();
  await expect(page.getByTestId('interrupt-held-by')).toContainText('genkit-middleware/toolApproval');
  await expect(page.getByTestId('interrupt-held-by')).toContainText('sendEmail never ran');
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const request = page.locator('[data-testid=workbench-request][data-request="sendEmail#email-1"]');
  await expect(request).toHaveAttribute('data-waiting-for', 'approval');
  // The draft starts as the restart that releases the hold.
  await expect(request.getByTestId('workbench-mode-restart')).toBeChecked();
  await expect(request.getByTestId('workbench-resumed')).toHaveValue(/"toolApproved": true/);
  await request.getByTestId('workbench-resumed').fill('{"toolApproved": false}');
  await expect(page.getByTestId('workbench-error')).toContainText('is held by ToolApproval: a restart without toolApproved: true in its resume data is held again');
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  await request.getByTestId('workbench-resumed').fill('{"toolApproved": true}');
  await expect(page.getByTestId('workbench-ok')).toHaveText('genkit Go would accept this answer.');
  await expect(page.getByTestId('workbench-snippet')).toContainText('ai.WithUse(&middleware.ToolApproval{AllowedTools: []string{"getWeather"}})');
  await pressResume(page);
  await expectRunStatus(page, 'finished', 120_000);
  await expect(page.getByTestId('run-text')).toContainText('Email sent to ana@example.com');
});

test('genkit go: answer a Go interrupt and a ToolApproval hold of saved traces on a fresh server — each answer a branch beside the recorded one, the files untouched', async ({ page }) => {
  test.setTimeout(360_000);
  const files = ['go-restart-after-approval.json', 'go-tool-approval-approved.json'];
  const before = files.map((file) => readFileSync(path.join(process.cwd(), E2E_TRACES_DIR, file), 'utf8'));
  const server = await startSecondServer();
  try {
    await openHomeWithReadyRunner(page, server.baseUrl);
    // The typed tool's own interrupt: resume data checked against its Go resume type (tools.Approval), then run.
    await page.goto(`${server.baseUrl}/saved/${files[0]}`);
    await openGoWorkbench(page);
    const transfer = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
    await transfer.getByTestId('workbench-mode-restart').check();
    await expect(transfer.getByTestId('workbench-resumed-as')).toContainText('transferMoney receives it as a tools.Approval', { timeout: 120_000 });
    await transfer.getByTestId('workbench-resumed').fill('{"approved": "yes"}');
    await expect(page.getByTestId('workbench-error')).toContainText('does not fit its Go resume type tools.Approval', { timeout: 120_000 });
    await transfer.getByTestId('workbench-resumed').fill('{"approved": true, "approvedBy": "quinn"}');
    await expect(page.getByTestId('workbench-ok')).toBeVisible();
    await pressResume(page);
    expect(new URL(page.url()).origin).toBe(server.baseUrl);
    await expectRunStatus(page, 'finished', 300_000);
    await expect(page.getByTestId('run-text')).toContainText('approved by quinn');
    await expect(page.getByTestId('graph-summary')).toContainText('answered: 0 respond, 2 restart');
    // The hold: refused this time, by a response part — sendEmail never runs.
    await page.goto(`${server.baseUrl}/saved/${files[1]}`);
    await openGoWorkbench(page, 'sendEmail');
    const email = page.locator('[data-testid=workbench-request][data-request="sendEmail#email-1"]');
    await email.getByTestId('workbench-mode-respond').check();
    await email.getByTestId('workbench-output').fill('{"status": "not sent", "to": "ana@example.com", "subject": "Lisbon weather"}');
    await expect(page.getByTestId('workbench-ok')).toBeVisible();
    await pressResume(page);
    await expectRunStatus(page, 'finished', 120_000);
    await expect(page.getByTestId('run-text')).toContainText('Email not sent to ana@example.com');
    await expect(page.getByTestId('graph-summary')).toContainText('answered: 1 respond, 1 restart');
  } finally {
    await server.stop();
  }
  expect(files.map((file) => readFileSync(path.join(process.cwd(), E2E_TRACES_DIR, file), 'utf8'))).toEqual(before);
});

test('genkit go: on a server that cannot build the Go runner, typed restart data is unchecked — the workbench says Go may accept or refuse it, and lists every schema problem of a response', async ({ page }) => {
  test.setTimeout(180_000);
  // No Go toolchain on PATH: the runner never says its tools' resume types, and the trace records none.
  const server = await startSecondServer({ env: { PATH: '/usr/bin:/bin' } });
  try {
    await openHomeWithReadyRunner(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/saved/go-restart-after-approval.json`);
    await openGoWorkbench(page);
    const transfer = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
    await transfer.getByTestId('workbench-mode-restart').check();
    await transfer.getByTestId('workbench-resumed').fill('{"approved": "yes"}');
    await expect(page.getByTestId('workbench-verdict-unchecked')).toContainText('genkit Go may accept or refuse this answer', { timeout: 60_000 });
    await expect(page.getByTestId('workbench-unchecked')).toContainText('The resume data of transferMoney#transfer-1 is unchecked: transferMoney is recorded as a multipart tool');
    await expect(page.getByTestId('workbench-ok')).toHaveCount(0);
    // A bare response to the typed tool: every problem genkit Go lists, one a line.
    await transfer.getByTestId('workbench-mode-respond').check();
    await transfer.getByTestId('workbench-output').fill('{"status": "done", "to": "Bob"}');
    const error = page.getByTestId('workbench-error');
    await expect(error).toContainText('data did not match expected schema:');
    expect(await error.innerText()).toContain('- (root): Additional property status is not allowed\n- (root): Additional property to is not allowed');
    await expect(page.getByTestId('workbench-verdict-unchecked')).toHaveCount(0);
  } finally {
    await server.stop();
  }
});

/** How each Go scenario ends from the home page, and after its scripted answer. */
const GO_OUTCOMES: Record<string, { first: 'finished' | 'interrupted' | 'failed'; text?: string }> = {
  'go-plain-tool-round': { first: 'finished', text: 'It is 24°C (75°F) and sunny in Lisbon.' },
  'go-restart-after-approval': { first: 'interrupted', text: 'approved by alice' },
  'go-restart-with-input': { first: 'interrupted', text: 'Booked: LIS → OPO on 2027-06-04.' },
  'go-respond-to-question': { first: 'interrupted', text: 'Booked your seat (Window)' },
  'go-parallel-pending-output': { first: 'interrupted', text: 'Refund done: 240 USD to Ada Lovelace' },
  'go-tool-approval-approved': { first: 'interrupted', text: 'Email sent to ana@example.com' },
  'go-tool-approval-refused': { first: 'interrupted', text: 'Email not sent (refused by the approver)' },
  'go-non-object-interrupt': { first: 'failed' },
  'go-tool-throws': { first: 'failed' },
  'go-unknown-tool': { first: 'failed' },
};

test('genkit go: every Go scenario runs from the home page — straight through, paused and answered by its script, or failed with genkit Go’s error', async ({ page }) => {
  test.setTimeout(600_000);
  const files = readdirSync(path.join(process.cwd(), 'tools', 'go', 'scenarios')).filter((file) => file.endsWith('.json'));
  expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual(Object.keys(GO_OUTCOMES).sort());
  for (const [name, outcome] of Object.entries(GO_OUTCOMES)) {
    await runScenarioFromHome(page, name, 'graph');
    await expectRunStatus(page, outcome.first, 300_000);
    if (outcome.first === 'failed') {
      await expect(page.locator('[data-testid=graph-node][data-kind=failure]'), name).toHaveCount(1);
      continue;
    }
    if (outcome.first === 'interrupted') {
      await expect(page.locator('[data-testid=graph-node][data-kind=tool-interrupt]'), name).not.toHaveCount(0);
      await page.getByTestId('resume-scripted').click();
      await expectRunStatus(page, 'finished', 120_000);
    }
    await expect(page.getByTestId('run-text'), name).toContainText(outcome.text!);
  }
});
