import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { expectRunStatus, openHomeWithReadyRunner } from './helpers';

/**
 * Replays of AI SDK recordings (issue 12, item 5): a saved recording of a paused call and the
 * call that answered it, replayed by the real `generateText` in the runner with the recorded
 * model answers and tool runs, compared call by call — as recorded, and once a recorded tool
 * output changed.
 */
const FIXTURE = path.join('lib', 'runtimes', 'ai-sdk', '__fixtures__', 'ai-sdk-approval-approved.otlp.json');

/** A saved copy of the approval fixture, the approved transfer's recorded result changed when `held` (as if recorded by another build). */
function writeSaved(name: string, options: { held?: boolean } = {}): void {
  const body = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  if (options.held) {
    const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const approved = spans.find((span: any) => span.name === 'execute_tool transferMoney');
    const result = approved.attributes.find((attribute: any) => attribute.key === 'gen_ai.tool.call.result');
    result.value.stringValue = result.value.stringValue.replace('"sent"', '"held"');
    body.description = 'ai-sdk-approval-approved with the approved transfer’s recorded result changed';
  }
  writeFileSync(path.join(E2E_TRACES_DIR, name), JSON.stringify(body));
}

async function replaySaved(page: Page, file: string) {
  await openHomeWithReadyRunner(page);
  await page.goto(`/saved/${file}`);
  const started = page.waitForResponse((response) => response.url().endsWith('/api/replay'));
  await page.getByTestId('replay-button').click();
  expect((await started).status()).toBe(202);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
}

test('ai sdk: replaying a saved approval and its answer with generateText matches the recording, both graphs drawn', async ({ page }) => {
  writeSaved('e2e-ai-sdk-replay-same.json');
  await replaySaved(page, 'e2e-ai-sdk-replay-same.json');
  await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
  const rows = page.locator('[data-testid=replay-steps] tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('call 1');
  await expect(rows.nth(1)).toContainText('call 2 (answer)');
  await expect(rows.filter({ has: page.locator('[data-matched=false]') })).toHaveCount(0);
  for (const side of ['recorded-graph', 'replayed-graph']) {
    await expect(page.getByTestId(side).locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  }
  await expect(page.locator('[data-testid=graph-node][data-marked=true]')).toHaveCount(0);
});

test('ai sdk: replay one and see a divergence after changing a recorded output — named by call and field, ringed in both graphs', async ({ page }) => {
  writeSaved('e2e-ai-sdk-replay-changed.json', { held: true });
  await replaySaved(page, 'e2e-ai-sdk-replay-changed.json');
  await expect(page.getByTestId('replay-verdict')).toHaveText('diverged');
  await expect(page.getByTestId('divergence')).toContainText('First divergence: call 2 (answer), model call 1');
  await expect(page.getByTestId('divergence-field')).toHaveText(/^messages\[\d\]\.parts\[\d\]\.response\.status$/);
  await expect(page.getByTestId('divergence-recorded')).toHaveText('sent');
  await expect(page.getByTestId('divergence-replayed')).toHaveText('held');
  const recordedMark = page.getByTestId('recorded-graph').locator('[data-testid=graph-node][data-marked=true]');
  const replayedMark = page.getByTestId('replayed-graph').locator('[data-testid=graph-node][data-marked=true]');
  await expect(recordedMark).toHaveCount(1);
  await expect(replayedMark).toHaveCount(1);
  await expect(recordedMark).toHaveAttribute('data-kind', 'model-call');
  await expect(replayedMark).toHaveAttribute('data-kind', 'model-call');
  const rows = page.locator('[data-testid=replay-steps] tbody tr');
  await expect(rows.nth(0)).toHaveAttribute('data-matched', 'true');
  await expect(rows.nth(1)).toHaveAttribute('data-matched', 'false');
  await expect(rows.nth(1)).toContainText('stopped at the first divergence (strict)');
});

test('ai sdk: Export repro of a saved AI SDK recording downloads a file that imports only ai', async ({ page }) => {
  writeSaved('e2e-ai-sdk-repro.json');
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/e2e-ai-sdk-repro.json');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-repro').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('repro-e2e-ai-sdk-repro.ts');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text.split('\n').filter((line) => line.startsWith('import '))).toEqual([expect.stringMatching(/ from "ai";$/), expect.stringMatching(/^import type .* from "@ai-sdk\/provider";$/)]);
  expect(text).toContain('recordedModel("loopscope-scripted", "scripted/ai-sdk-approval-approved")');
});
