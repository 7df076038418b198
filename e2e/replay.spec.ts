import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_TRACES_DIR } from '../playwright.config';
import { expectRunStatus, openHomeWithReadyRunner } from './helpers';

async function replaySaved(page: Page, file: string, options: { liveTools?: boolean } = {}) {
  await openHomeWithReadyRunner(page);
  await page.goto(`/saved/${file}`);
  if (options.liveTools) await page.getByTestId('replay-live-tools').check();
  const started = page.waitForResponse((response) => response.url().endsWith('/api/replay'));
  await page.getByTestId('replay-button').click();
  expect((await started).status()).toBe(202);
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
}

/** A copy of a shipped trace with the recorded transferMoney restart output changed (as if the recording came from another build). */
function writeChangedTrace(name: string): void {
  const body = JSON.parse(readFileSync(path.join('traces', 'restart-after-approval.json'), 'utf8'));
  const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
  const restarted = spans.find((span: any) => span.name === 'transferMoney' && span.attributes.some((attribute: any) => attribute.key === 'genkit:metadata:resumed'));
  const output = restarted.attributes.find((attribute: any) => attribute.key === 'genkit:output');
  output.value.stringValue = output.value.stringValue.replace('"done"', '"rejected"');
  body.description = 'restart-after-approval with the restarted tool’s recorded output changed';
  writeFileSync(path.join(E2E_TRACES_DIR, name), JSON.stringify(body));
}

test('replay: the user replays a saved genkit bug trace and it fails again exactly as recorded — a match', async ({ page }) => {
  await replaySaved(page, 'genkit-bug-3-mutated-messages.json');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Replay');
  await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
  const rows = page.locator('[data-testid=replay-steps] tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('a retry: same messages');
  await expect(rows.nth(2)).toContainText("Unresolved tool request 'lookupAccount#la1'");
  await expect(rows.filter({ has: page.locator('[data-matched=false]') })).toHaveCount(0);
  // Both graphs drawn: the recording and the replay, three generates each.
  await expect(page.getByTestId('recorded-graph').locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(3);
  await expect(page.getByTestId('replayed-graph').locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(3);
  await expect(page.locator('[data-testid=graph-node][data-marked=true]')).toHaveCount(0);
});

test('replay: a changed recording diverges — side by side, the first divergence named and ringed in both graphs', async ({ page }) => {
  writeChangedTrace('e2e-replay-changed.json');
  await replaySaved(page, 'e2e-replay-changed.json');
  await expect(page.getByTestId('replay-verdict')).toHaveText('diverged');
  const divergence = page.getByTestId('divergence');
  await expect(divergence).toContainText('First divergence: generate 2 (resume), model call 1');
  await expect(page.getByTestId('divergence-field')).toHaveText(/^messages\[\d\]\.content\[\d\]\.toolResponse\.output\.status$/);
  await expect(page.getByTestId('divergence-recorded')).toHaveText('done');
  await expect(page.getByTestId('divergence-replayed')).toHaveText('rejected');
  const recordedMark = page.getByTestId('recorded-graph').locator('[data-testid=graph-node][data-marked=true]');
  const replayedMark = page.getByTestId('replayed-graph').locator('[data-testid=graph-node][data-marked=true]');
  await expect(recordedMark).toHaveCount(1);
  await expect(replayedMark).toHaveCount(1);
  await expect(recordedMark).toHaveAttribute('data-kind', 'model-call');
  await expect(replayedMark).toHaveAttribute('data-kind', 'model-call');
  await expect(page.locator('[data-testid=replay-steps] tbody tr').nth(1)).toHaveAttribute('data-matched', 'false');
  await expect(page.locator('[data-testid=replay-steps] tbody tr').nth(1)).toContainText('stopped at the first divergence (strict)');
  // Each graph brings its ringed node into view (inside its own canvas).
  for (const side of ['recorded-graph', 'replayed-graph']) {
    const canvas = page.getByTestId(side).getByTestId('run-graph');
    const mark = page.getByTestId(side).locator('[data-testid=graph-node][data-marked=true]');
    await expect(async () => {
      const [outer, inner] = [await canvas.boundingBox(), await mark.boundingBox()];
      expect(inner!.x).toBeGreaterThanOrEqual(outer!.x);
      expect(inner!.x + inner!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
      expect(inner!.y).toBeGreaterThanOrEqual(outer!.y);
      expect(inner!.y + inner!.height).toBeLessThanOrEqual(outer!.y + outer!.height);
    }).toPass({ timeout: 5_000 });
  }
  await page.screenshot({ path: 'test-results/replay-diverged.png', fullPage: true });
});

test('replay: with live tools the local tools run and the shipped recording still matches', async ({ page }) => {
  await replaySaved(page, 'parallel-pending-output.json', { liveTools: true });
  await expect(page.getByTestId('replay-view')).toContainText('live tools');
  await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
});

test('replay: fork — the user edits a finished tool call’s output and the run goes on from there, the change traced', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/plain-tool-round.json');
  await page.locator('[data-testid=graph-node][data-kind=tool-call]').filter({ hasText: 'getWeather' }).click();
  await page.getByTestId('open-fork').click();
  const editor = page.getByTestId('fork-json');
  await expect(editor).toHaveValue(/"temperatureC": 24/);
  await editor.fill('{oops');
  await expect(page.getByTestId('fork-error')).toContainText('Not valid JSON');
  await expect(page.getByTestId('fork-run')).toBeDisabled();
  await editor.fill('{"city": "Lisbon", "temperatureC": 31, "conditions": "hot"}');
  await page.getByTestId('fork-run').click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Fork');
  await expect(page.getByTestId('replay-fork')).toContainText('getWeather answers');
  await expect(page.getByTestId('replay-verdict')).toHaveText('diverged');
  await expect(page.getByTestId('divergence')).toContainText('model call 2');
  await expect(page.getByTestId('divergence-replayed')).toHaveText('hot');
});

test('replay: Export repro on a saved bug trace downloads a standalone genkit file that names the bug', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/genkit-bug-1-restart-reinterrupts.json');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-repro').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('repro-genkit-bug-1-restart-reinterrupts.ts');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text).toContain('from "genkit/beta"');
  expect(text).not.toMatch(/from ["'][^"']*lib\//);
  expect(text).toContain("generate 2 (resume): failed: Cannot read properties of undefined (reading 'tools')");
  expect(text).toContain('bug 1');
});
