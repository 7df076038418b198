import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { expectRunStatus, openHomeWithReadyRunner, rawRequest, runScenarioFromHome, tinyOtlpTrace } from './helpers';

/**
 * Everyday use (issue 14): a graph opens readable. React Flow's zoom is read from its viewport
 * transform; "inside the pane" is measured on screen.
 */
async function zoomOf(page: Page): Promise<number> {
  const transform = await page.locator('[data-testid=run-graph] .react-flow__viewport').evaluate((element) => getComputedStyle(element).transform);
  // matrix(a, b, c, d, tx, ty): a is the scale.
  const match = /^matrix\(([^,]+),/.exec(transform);
  return match ? Number(match[1]) : 1;
}

async function expectInsidePane(page: Page, node: Locator, what: string): Promise<void> {
  const pane = (await page.locator('[data-testid=run-graph] .react-flow').boundingBox())!;
  const box = await node.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.x, `${what}: left edge inside the pane`).toBeGreaterThanOrEqual(pane.x - 1);
  expect(box!.y, `${what}: top edge inside the pane`).toBeGreaterThanOrEqual(pane.y - 1);
  expect(box!.x + box!.width, `${what}: right edge inside the pane`).toBeLessThanOrEqual(pane.x + pane.width + 1);
  expect(box!.y + box!.height, `${what}: bottom edge inside the pane`).toBeLessThanOrEqual(pane.y + pane.height + 1);
}

const kindNode = (page: Page, kind: string) => page.locator(`[data-testid=run-graph] [data-testid=graph-node][data-kind="${kind}"]`);

for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`everyday: the saved multi-round file opens readable at ${viewport.width}×${viewport.height}, its first and last nodes in the pane, no minimap over them`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/saved/multi-round-research.json');
    const canvas = page.getByTestId('run-graph');
    await expect(canvas).toHaveAttribute('data-fits', 'true');
    await expect(kindNode(page, 'final-answer')).toHaveCount(1);
    // The opening viewport is set on the next frame: wait for it to settle.
    await expect.poll(() => zoomOf(page)).toBeGreaterThanOrEqual(0.8);
    await expectInsidePane(page, kindNode(page, 'generate').first(), 'the first generate');
    await expectInsidePane(page, kindNode(page, 'final-answer'), 'the final answer');
    await expect(page.locator('[data-testid=run-graph] .react-flow__minimap')).toHaveCount(0);
    // Label text is readable: at least 11 px on screen.
    const labelSize = await kindNode(page, 'final-answer').locator('.graph-node-label').evaluate((element) => element.getBoundingClientRect().height);
    expect(labelSize).toBeGreaterThanOrEqual(11);
  });
}

test('everyday: a genkit bug note shows on its node and in the detail panel, and a saved file shows its description', async ({ page }) => {
  await page.goto('/saved/genkit-bug-4-no-ref.json');
  await expect(page.getByTestId('saved-description')).toContainText(/ref/i);
  const noted = page.locator('[data-testid=run-graph] [data-testid=graph-node]').filter({ has: page.getByTestId('graph-node-note') });
  await expect(noted.first()).toBeVisible();
  await expect(noted.first().getByTestId('graph-node-note')).toHaveAttribute('title', /genkit 1\.42 bug 4/);
  await noted.first().click();
  await expect(page.getByTestId('node-notes')).toContainText('genkit 1.42 bug 4');
});

test('everyday: a replay page saves under its own suggested name, and a taken name asks before it overwrites', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/genkit-bug-3-mutated-messages.json');
  await page.getByTestId('replay-button').click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
  const name = await page.getByTestId('save-name').inputValue();
  expect(name).toMatch(/^replay-of-genkit-bug-3-mutated-messages\.json-/);
  try {
    await page.getByTestId('save-button').click();
    await expect(page.getByTestId('save-message')).toHaveText(`Saved as traces/${name}.json`);
    await page.getByTestId('save-button').click();
    await expect(page.getByTestId('save-message')).toContainText(`traces/${name}.json already exists.`);
    await page.getByTestId('save-keep').click();
    await expect(page.getByTestId('save-message')).toHaveCount(0);
    await page.getByTestId('save-button').click();
    await page.getByTestId('save-overwrite').click();
    await expect(page.getByTestId('save-message')).toHaveText(`Saved as traces/${name}.json (replaced the old file)`);
  } finally {
    rmSync(path.join(E2E_TRACES_DIR, `${name}.json`), { force: true });
  }
});

test('everyday: every page has a way home, and ? opens the keyboard shortcuts (Esc or Close closes them)', async ({ page }) => {
  await page.goto('/saved/multi-round-research.json');
  await expect(page.getByTestId('run-graph')).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcut-help');
  await expect(help).toBeVisible();
  await expect(help).toContainText('continue to the next breakpoint');
  await expect(page.getByTestId('shortcut-help-close')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.getByTestId('shortcut-help-button').click();
  await expect(help).toBeVisible();
  await page.getByTestId('shortcut-help-close').click();
  await expect(help).toHaveCount(0);

  await page.goto('/traces/0123456789abcdef0123456789abcdef');
  await page.getByTestId('home-link').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('runner-state')).toBeVisible();
});

test('everyday: the timeline tab draws every span as a bar on one axis, parallel tool calls side by side, and selects a span for the detail', async ({ page }) => {
  await page.goto('/saved/plain-tool-round.json?tab=timeline');
  await expect(page.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true');
  const rows = page.getByTestId('timeline-row');
  await expect(rows).toHaveCount(6);
  const tools = rows.and(page.locator('[data-role=tool]'));
  await expect(tools).toHaveCount(2);
  const bars = await Promise.all((await tools.all()).map(async (row) => ({ left: Number(await row.getAttribute('data-left')), width: Number(await row.getAttribute('data-width')) })));
  const [a, b] = bars;
  expect(a.left <= b.left + b.width && b.left <= a.left + a.width, 'the two tool bars overlap in time').toBe(true);
  await tools.filter({ hasText: 'getWeather' }).click();
  await expect(page.getByTestId('span-detail')).toContainText('Lisbon');
  await page.getByTestId('span-timeline').focus();
  await page.keyboard.press('Home');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
});

test('everyday: the shipped long-loop scenario (60 rounds) runs from the home page, opens folded and readable, and its timeline lists every span', async ({ page }) => {
  await runScenarioFromHome(page, 'long-loop', 'graph');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 61 model · 60 tool · 0 interrupt(s)');
  await expect(kindNode(page, 'collapsed-rounds').first()).toBeVisible();
  await expect.poll(() => zoomOf(page)).toBeGreaterThanOrEqual(0.8);
  await expectInsidePane(page, kindNode(page, 'generate').first(), 'the generate');
  await page.getByTestId('tab-timeline').click();
  await expect(page.getByTestId('timeline-row')).toHaveCount(182);
});

test('everyday: an empty graph says which spans arrived, which runtimes Loopscope draws, and how to send spans here', async ({ page }) => {
  const { traceId, body } = tinyOtlpTrace('http.request');
  const response = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body });
  expect(response.status, response.text).toBe(200);
  await page.goto(`/traces/${traceId}`);
  await expect(page.getByTestId('empty-graph-found')).toHaveText(/^1 span arrived, but none is a tool-loop call Loopscope draws: 1 other \(most common names: http\.request\)\.$/);
  await expect(page.getByTestId('empty-graph')).toContainText('genkit JS');
  await page.getByTestId('empty-graph').getByText('How to send spans here').click();
  await expect(page.getByTestId('empty-graph')).toContainText('OTEL_EXPORTER_OTLP_ENDPOINT alone sends nothing');
  await expect(page.getByTestId('empty-graph')).toContainText('registerTelemetry(new OpenTelemetry())');
});

test('everyday: the message view of a resume shows its history with the interrupt markers, its answers, and what it changed', async ({ page }) => {
  await page.goto('/saved/parallel-pending-output.json');
  // The interrupted generate received the model message with the interrupt and the parked pendingOutput.
  await page.locator('[data-testid=graph-node][data-kind=generate]').filter({ hasText: 'generate 1' }).click();
  const received = page.getByTestId('conversation-received');
  await expect(received.getByTestId('message-marker').filter({ hasText: /^interrupt$/ })).toHaveCount(1);
  await expect(received.getByTestId('message-marker').filter({ hasText: /^pendingOutput$/ })).toHaveCount(1);
  // The resume: its restart answer, and the model message whose markers genkit rewrote.
  await page.locator('[data-testid=graph-node][data-kind=generate]').filter({ hasText: '(resume)' }).click();
  await expect(page.getByTestId('conversation-answers').getByTestId('message-marker').filter({ hasText: /^resumed$/ })).toHaveCount(1);
  const sent = page.getByTestId('conversation-sent');
  await expect(sent.locator('[data-testid=message][data-status=changed]')).toHaveCount(1);
  await expect(sent.locator('[data-testid=message-part][data-change=markers]').first()).toBeVisible();
  await page.getByTestId('conversation-compare').uncheck();
  await expect(sent.locator('[data-testid=message][data-status=changed]')).toHaveCount(0);
});
