import { expect, test } from '@playwright/test';
import { AUTH, rawRequest } from './helpers';

/**
 * Issue 36: one local process without a token could make the home page unusable. Four spans
 * with 30 MiB names (each sent alone, under the 32 MiB door, as any exporter may) made the
 * list 128 MB: the home page showed its rows after 32 s with 500 MB of heap. Lists carry
 * bounded names; the whole name stays in the trace and the span's detail panel.
 */
const HUGE = 30 * 1024 * 1024;

const hex = (bytes: number) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('');

/** One span named `letter` × 30 MiB, alone in its trace, as an OTLP JSON export. */
function hugeSpanExport(letter: string): { traceId: string; body: string } {
  const traceId = hex(16);
  const start = BigInt(Date.now()) * 1_000_000n;
  const span = { traceId, spanId: hex(8), name: letter.repeat(HUGE), kind: 1, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 5_000_000n), attributes: [], status: { code: 1 } };
  const body = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'e2e-bounded' } }] }, scopeSpans: [{ scope: { name: 'e2e' }, spans: [span] }] }] };
  return { traceId, body: JSON.stringify(body) };
}

test('bounded: four spans with 30 MiB names — the home page lists them quickly with shortened titles, and the detail panel holds the whole name', async ({ page }) => {
  test.setTimeout(180_000);
  const traceIds: string[] = [];
  for (const letter of ['p', 'q', 'r', 's']) {
    const { traceId, body } = hugeSpanExport(letter);
    const stored = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body });
    expect(stored.status, stored.text).toBe(200);
    traceIds.push(traceId);
  }
  try {
    // The list the home page reads: a few KB, not 128 MB.
    const list = await rawRequest({ path: '/api/traces?limit=50', headers: AUTH });
    expect(list.text.length).toBeLessThan(50_000);

    await page.goto('/');
    const title = (traceId: string) => page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`).getByTestId('trace-title');
    // Before the bound the rows came after 32 s.
    await expect(title(traceIds[0])).toBeVisible({ timeout: 10_000 });
    const cut = (letter: string) => `${letter.repeat(200)}… [${HUGE} characters in all]`;
    for (const [index, letter] of ['p', 'q', 'r', 's'].entries()) await expect(title(traceIds[index])).toHaveText(cut(letter));

    // The trace page: its title bounded too; the span's detail panel has the whole name, folded.
    await title(traceIds[0]).click();
    await page.waitForURL(new RegExp(`/traces/${traceIds[0]}$`));
    await expect(page.locator('h1')).toHaveText(cut('p'));
    await page.getByTestId('tab-spans').click();
    const row = page.getByTestId('span-row');
    await expect(row).toHaveCount(1, { timeout: 60_000 });
    await expect(row.locator('.span-label')).toHaveText(cut('p'));
    await row.click();
    const detail = page.getByTestId('span-detail');
    await expect(detail.locator('h2')).toHaveText(cut('p'), { timeout: 60_000 });
    const whole = detail.getByTestId('detail-whole-label');
    await expect(whole).toContainText(`The whole span name: ${HUGE} characters`);
    await whole.locator('summary').click();
    const text = detail.getByTestId('detail-whole-label-text');
    expect(await text.evaluate((element) => [element.textContent?.length, element.textContent?.startsWith('pppp'), element.textContent?.endsWith('pppp')])).toEqual([HUGE, true, true]);
  } finally {
    const deleted = await rawRequest({ method: 'POST', path: '/api/traces/delete', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ traceIds }) });
    expect(deleted.status, deleted.text).toBe(200);
  }
});
