import { expect, test, type Page } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, type RunStatus } from './helpers';

/**
 * AI SDK v7 loops (issue 12): each AI SDK scenario run from the home page by real
 * `generateText` in the runner, its spans captured over OTLP and drawn by the AI SDK dialect —
 * rounds, pauses for approvals and handed-back tools, the SDK's own words for node states —
 * and the scenario's scripted answers (approve, deny, the caller's result) run from the live run.
 */

interface Case {
  scenario: string;
  status: RunStatus;
  finishReason: string;
  /** The graph summary of the first call: generates, model calls, tool calls, pending calls. */
  summary: [number, number, number, number];
  /** Words the graph must show (a node state in the SDK's words). */
  shows?: string;
}

const CASES: Case[] = [
  { scenario: 'ai-sdk-plain-tool-round', status: 'finished', finishReason: 'stop', summary: [1, 2, 2, 0] },
  { scenario: 'ai-sdk-approval-approved', status: 'interrupted', finishReason: 'tool-calls', summary: [1, 1, 0, 1] },
  { scenario: 'ai-sdk-approval-denied', status: 'interrupted', finishReason: 'tool-calls', summary: [1, 1, 0, 1] },
  { scenario: 'ai-sdk-approval-policy', status: 'interrupted', finishReason: 'tool-calls', summary: [1, 1, 1, 1] },
  { scenario: 'ai-sdk-signed-approval-forged', status: 'interrupted', finishReason: 'tool-calls', summary: [1, 1, 0, 1] },
  { scenario: 'ai-sdk-handed-back-tool', status: 'interrupted', finishReason: 'tool-calls', summary: [1, 1, 0, 1] },
  { scenario: 'ai-sdk-dynamic-tool', status: 'finished', finishReason: 'stop', summary: [1, 2, 1, 0] },
  { scenario: 'ai-sdk-provider-executed-tool', status: 'finished', finishReason: 'stop', summary: [1, 1, 1, 0], shows: 'provider' },
  { scenario: 'ai-sdk-unknown-tool', status: 'finished', finishReason: 'stop', summary: [1, 2, 0, 0], shows: 'NoSuchToolError' },
  { scenario: 'ai-sdk-invalid-tool-input', status: 'finished', finishReason: 'stop', summary: [1, 2, 0, 0], shows: 'InvalidToolInputError' },
  { scenario: 'ai-sdk-repair-tool-call', status: 'finished', finishReason: 'stop', summary: [1, 2, 1, 0] },
  { scenario: 'ai-sdk-tool-throws', status: 'finished', finishReason: 'stop', summary: [1, 2, 1, 0], shows: 'tool-error' },
  { scenario: 'ai-sdk-step-limit', status: 'finished', finishReason: 'tool-calls', summary: [1, 2, 2, 0] },
];

const graph = (page: Page) => page.getByTestId('run-graph');
const summaryText = ([generates, models, tools, pending]: Case['summary']) => `${generates} generate(s) · ${models} model · ${tools} tool · ${pending} interrupt(s)`;

test('ai sdk: the home page lists every AI SDK scenario with its runtime; each can be run, stepped or run to breakpoints', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  for (const kase of CASES) {
    const card = page.locator(`[data-testid=scenario-card][data-scenario="${kase.scenario}"]`);
    await expect(card.getByTestId(`runtime-${kase.scenario}`)).toContainText('AI SDK');
    await expect(card.getByTestId(`run-${kase.scenario}`)).toBeEnabled();
    await expect(card.getByTestId(`step-${kase.scenario}`)).toBeEnabled();
    await expect(card.getByTestId(`breakpoints-${kase.scenario}`)).toHaveCount(1);
  }
});

for (const kase of CASES) {
  test(`ai sdk: the user runs ${kase.scenario} and sees its rounds drawn: ${kase.status}, finish reason ${kase.finishReason}, ${summaryText(kase.summary)}`, async ({ page }) => {
    await runScenarioFromHome(page, kase.scenario, 'graph');
    await expectRunStatus(page, kase.status);
    await expect(page.getByTestId('run-finish-reason')).toHaveText(kase.finishReason);
    await expect(page.getByTestId('graph-summary')).toContainText(summaryText(kase.summary));
    await expect(page.locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(kase.summary[0]);
    await expect(page.locator('[data-testid=graph-node][data-kind=model-call]')).toHaveCount(kase.summary[1]);
    // A pending call is a pause, never an error.
    const pauses = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]');
    await expect(pauses).toHaveCount(kase.summary[3]);
    if (kase.summary[3] > 0) await expect(pauses.first()).toHaveAttribute('data-tone', 'interrupted');
    if (kase.shows) await expect(graph(page)).toContainText(kase.shows);
  });
}

async function resumeWithScenarioAnswer(page: Page): Promise<void> {
  const resumed = page.waitForResponse((response) => /\/api\/runs\/[^/]+\/resume$/.test(new URL(response.url()).pathname) && response.request().method() === 'POST');
  await page.getByTestId('resume-scripted').click();
  expect((await resumed).status()).toBeLessThan(300);
}

test('ai sdk: approve from the live run — the approved tool runs first in the answer call, drawn as a restart linked to the pause', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-approval-approved', 'graph');
  await expectRunStatus(page, 'interrupted');
  // The pause is explained in the AI SDK's terms, not genkit's.
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
  await expect(page.getByTestId('pause-explained')).toContainText('tool-approval-response');
  await expect(page.getByTestId('pause-explained')).not.toContainText('ToolInterruptError');
  await resumeWithScenarioAnswer(page);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Sent 500 USD to Bob.');
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s) · 2 model · 1 tool · 1 interrupt(s) · answered: 0 respond, 1 restart, 0 pending');
  await expect(page.locator('[data-testid=run-graph] .react-flow__edge').filter({ hasText: 'answered by' })).not.toHaveCount(0);
  // The answer call's message view: the history it sent carries the SDK's approval parts.
  await page.locator('[data-testid=graph-node][data-kind=generate]').filter({ hasText: '(resume)' }).click();
  await expect(page.getByTestId('conversation-sent').locator('[data-testid=message-part][data-kind=approval-request]')).not.toHaveCount(0);
  await expect(page.getByTestId('conversation-sent').locator('[data-testid=message-part][data-kind=approval-response]')).not.toHaveCount(0);
});

test('ai sdk: deny from the live run — no tool runs, the denial and its reason are the answer the model sees', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-approval-denied', 'graph');
  await expectRunStatus(page, 'interrupted');
  await resumeWithScenarioAnswer(page);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s) · 2 model · 0 tool · 1 interrupt(s) · answered: 1 respond, 0 restart, 0 pending');
  await expect(graph(page)).toContainText('denied');
});

test('ai sdk: a handed-back tool answered with the caller’s result — a respond, no tool span', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-handed-back-tool', 'graph');
  await expectRunStatus(page, 'interrupted');
  await resumeWithScenarioAnswer(page);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s) · 2 model · 0 tool · 1 interrupt(s) · answered: 1 respond, 0 restart, 0 pending');
});

test('ai sdk: a forged signed approval is refused by the SDK — the answer call fails naming the signature, nothing runs', async ({ page }) => {
  await runScenarioFromHome(page, 'ai-sdk-signed-approval-forged', 'graph');
  await expectRunStatus(page, 'interrupted');
  await resumeWithScenarioAnswer(page);
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText(/signature/i);
  await expect(page.getByTestId('graph-summary')).toContainText('0 tool');
});
