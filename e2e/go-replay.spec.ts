import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { expectRunStatus, openHomeWithReadyRunner } from './helpers';

/**
 * Replays of genkit Go recordings (issue 13, item 6): a saved interrupt and the restart that
 * answered it, replayed in the Go runner by genkit Go's own loop with the recorded model answers
 * and tool runs, compared call by call — as recorded, and once a recorded tool output changed —
 * and exported as a Go program.
 */
const FIXTURE = path.join('lib', 'runtimes', 'genkit-go', '__fixtures__', 'go-restart-after-approval.otlp.json');

/** A saved copy of the Go restart fixture, the restarted transfer's recorded output changed when `rejected`. */
function writeSaved(name: string, options: { rejected?: boolean } = {}): void {
  const body = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  if (options.rejected) {
    const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const restarted = spans.find((span: any) => span.name === 'transferMoney' && span.attributes.some((attribute: any) => attribute.key === 'genkit:output'));
    const output = restarted.attributes.find((attribute: any) => attribute.key === 'genkit:output');
    output.value.stringValue = output.value.stringValue.replace('"done"', '"rejected"');
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
  // The first Go replay may build the Go runner.
  await expectRunStatus(page, 'finished', 300_000);
}

test('genkit go: replaying a saved interrupt and its restart in the Go runner matches the recording, both graphs drawn', async ({ page }) => {
  test.setTimeout(360_000);
  writeSaved('e2e-go-replay-same.json');
  await replaySaved(page, 'e2e-go-replay-same.json');
  await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
  const rows = page.locator('[data-testid=replay-steps] tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('generate 2 (resume)');
  await expect(rows.filter({ has: page.locator('[data-matched=false]') })).toHaveCount(0);
  for (const side of ['recorded-graph', 'replayed-graph']) {
    await expect(page.getByTestId(side).locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  }
  await expect(page.locator('[data-testid=graph-node][data-marked=true]')).toHaveCount(0);
});

test('genkit go: replay one and see a divergence after changing a recorded output — named by call and field, ringed in both graphs', async ({ page }) => {
  test.setTimeout(360_000);
  writeSaved('e2e-go-replay-changed.json', { rejected: true });
  await replaySaved(page, 'e2e-go-replay-changed.json');
  await expect(page.getByTestId('replay-verdict')).toHaveText('diverged');
  await expect(page.getByTestId('divergence')).toContainText('First divergence: generate 2 (resume), model call 1');
  await expect(page.getByTestId('divergence-field')).toHaveText('messages[2].content[0].toolResponse.output.status');
  await expect(page.getByTestId('divergence-recorded')).toHaveText('done');
  await expect(page.getByTestId('divergence-replayed')).toHaveText('rejected');
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

test('genkit go: Export repro of a saved Go recording downloads a Go program that imports genkit Go alone', async ({ page }) => {
  writeSaved('e2e-go-repro.json');
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/e2e-go-repro.json');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-repro').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('repro-e2e-go-repro.go');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text).toMatch(/^\/\/ Repro of a genkit Go run recorded by Loopscope: 2 calls, \d+ spans\./);
  expect(text).toContain('package main');
  expect(text.split('\n').filter((line) => line.startsWith('\t"github.com/'))).toEqual(['\t"github.com/firebase/genkit/go/ai"', '\t"github.com/firebase/genkit/go/genkit"', '\t"github.com/firebase/genkit/go/plugins/middleware"']);
});
