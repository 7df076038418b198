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
