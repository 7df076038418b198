import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openHomeWithReadyRunner } from './helpers';

interface ScenarioFile {
  name: string;
  title: string;
  description: string;
}

// genkit JS and AI SDK scenarios (tools/scenarios/) and genkit Go's (tools/go/scenarios/).
const scenarioDirs = [path.join(process.cwd(), 'tools', 'scenarios'), path.join(process.cwd(), 'tools', 'go', 'scenarios')];
const scenarios: ScenarioFile[] = scenarioDirs.flatMap((scenarioDir) =>
  readdirSync(scenarioDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(scenarioDir, file), 'utf8')) as ScenarioFile),
);

test('the user opens the home page and sees every scenario with its description and a ready runner', async ({ page }) => {
  expect(scenarios.length).toBeGreaterThanOrEqual(10);
  await openHomeWithReadyRunner(page);
  const cards = page.getByTestId('scenario-card');
  await expect(cards).toHaveCount(scenarios.length);
  for (const scenario of scenarios) {
    const card = page.locator(`[data-testid=scenario-card][data-scenario="${scenario.name}"]`);
    await expect(card, `card of ${scenario.name}`).toBeVisible();
    await expect(card).toContainText(scenario.title);
    await expect(card).toContainText(scenario.description);
    await expect(card.getByTestId(`run-${scenario.name}`)).toBeEnabled();
  }
  await expect(page.getByTestId('trace-table')).toBeAttached();
});

test('the header leads to the Apps page by keyboard, and marks the page shown as the current one', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  const header = page.getByRole('navigation', { name: 'Loopscope' });
  const home = header.getByRole('link', { name: 'Runs and traces' });
  const apps = header.getByRole('link', { name: 'Apps', exact: true });
  await expect(home).toHaveAttribute('aria-current', 'page');
  await expect(apps).not.toHaveAttribute('aria-current');

  // Tab from the top of the page reaches the header's Apps link (the brand and the home link come first).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let reached = false;
  for (let press = 0; press < 6 && !reached; press++) {
    await page.keyboard.press('Tab');
    reached = await apps.evaluate((link) => link === document.activeElement);
  }
  expect(reached, 'Tab reaches the Apps link in the header').toBe(true);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your apps');
  await expect(apps).toHaveAttribute('aria-current', 'page');
  await expect(home).not.toHaveAttribute('aria-current');
  await expect(header.locator('[aria-current=page]')).toHaveCount(1);
});
