import { expect, test } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, spanRows, spanRowsWhere } from './helpers';

test.describe('inspecting spans', () => {
  test('the user clicks the getWeather span, reads its input and output, and moves the selection with the arrow keys', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round');
    await expectRunStatus(page, 'finished');
    const rows = spanRows(page);
    await expect(rows).toHaveCount(6);

    const weather = spanRowsWhere(page, { role: 'tool', label: 'getWeather' });
    await weather.click();
    await expect(weather).toHaveAttribute('aria-selected', 'true');
    const detail = page.getByTestId('span-detail');
    await expect(detail).toBeVisible();
    await expect(detail.getByTestId('detail-input')).toContainText('Lisbon');
    await expect(detail.getByTestId('detail-output')).toContainText('temperatureC');
    await expect(detail.getByTestId('detail-metadata')).toBeVisible();
    await expect(page.locator('[data-testid=span-row][aria-selected=true]')).toHaveCount(1);

    const ids = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-span-id')));
    const weatherId = await weather.getAttribute('data-span-id');
    const index = ids.indexOf(weatherId);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThan(ids.length - 1);

    await page.keyboard.press('ArrowDown');
    const below = rows.nth(index + 1);
    await expect(below).toHaveAttribute('aria-selected', 'true');
    await expect(weather).toHaveAttribute('aria-selected', 'false');
    await expect(below).toBeFocused();
    const belowLabel = await below.getAttribute('data-label');
    await expect(detail.locator('h2')).toContainText(belowLabel ?? '');

    await page.keyboard.press('ArrowUp');
    await expect(weather).toHaveAttribute('aria-selected', 'true');
    await expect(detail.getByTestId('detail-input')).toContainText('Lisbon');
  });

  test('the user clicks the paused transferMoney span and sees the interrupt note with its metadata', async ({ page }) => {
    await runScenarioFromHome(page, 'restart-after-approval');
    await expectRunStatus(page, 'interrupted');
    const transfer = spanRowsWhere(page, { role: 'tool', label: 'transferMoney', outcome: 'interrupted' });
    await transfer.click();
    await expect(transfer).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('interrupt-note')).toBeVisible();
    await expect(page.getByTestId('detail-interrupt')).toContainText('approval-required');
    await expect(page.getByTestId('detail-input')).toContainText('Bob');
  });

  test('the user follows the trace link of a finished run and sees the same span tree on the trace page', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round');
    await expectRunStatus(page, 'finished');
    await expect(spanRows(page)).toHaveCount(6);
    await page.getByRole('link', { name: 'first generate' }).click();
    await page.waitForURL(/\/traces\/[0-9a-f]{32}$/);
    await expect(page.getByTestId('trace-status')).toBeVisible();
    await page.getByTestId('tab-spans').click();
    await expect(spanRows(page)).toHaveCount(6);
    await expect(spanRowsWhere(page, { role: 'tool', outcome: 'ok' })).toHaveCount(2);
  });

  test('the user saves a finished run as e2e-saved and finds e2e-saved.json among the saved traces', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round');
    await expectRunStatus(page, 'finished');
    await expect(spanRows(page)).toHaveCount(6);
    await page.getByTestId('save-name').fill('e2e-saved');
    const saved = page.waitForResponse((response) => response.url().includes('/api/traces/save') || response.url().includes('/api/saved'));
    await page.getByTestId('save-button').click();
    const response = await saved;
    expect(response.status(), await response.text()).toBeLessThan(300);
    const message = page.getByTestId('save-message');
    await expect(message).toBeVisible();
    await expect(message).toContainText('e2e-saved');
    await expect(message).not.toHaveClass(/error-text/);

    await openHomeWithReadyRunner(page);
    await expect(page.getByTestId('saved-row').filter({ hasText: 'e2e-saved.json' })).toHaveCount(1);
  });
});
