import { expect, test, type Page } from '@playwright/test';
import { AUTH, BASE_URL, expectRunStatus, rawRequest, runScenarioFromHome, serveOtherOrigin, TOKEN } from './helpers';

function expectSecurityHeaders(what: string, headers: Record<string, string | string[] | undefined>): void {
  const policy = String(headers['content-security-policy'] ?? '');
  expect(policy, `${what}: Content-Security-Policy`).toContain("frame-ancestors 'none'");
  expect(policy, `${what}: script-src`).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'|script-src 'none'/);
  expect(policy, `${what}: no inline script`).not.toContain('unsafe-inline');
  expect(headers['x-frame-options'], `${what}: X-Frame-Options`).toBe('DENY');
  expect(headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(headers['referrer-policy'], `${what}: Referrer-Policy`).toBe('no-referrer');
}

test.describe('pages carry no token and every response carries the security headers', () => {
  test('curl-style requests to /, /anything, a run page, a static asset and the API: the token is in no body or header', async () => {
    const home = await rawRequest({ path: '/' });
    expect(home.status).toBe(200);
    const asset = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(home.text)?.[1];
    expect(asset, 'the home page names its script bundles').toBeTruthy();
    const responses = {
      '/': home,
      '/anything': await rawRequest({ path: '/anything' }),
      '/runs/x': await rawRequest({ path: '/runs/x' }),
      '/saved/plain-tool-round.json': await rawRequest({ path: '/saved/plain-tool-round.json' }),
      [asset as string]: await rawRequest({ path: asset as string }),
      '/api/traces (no token)': await rawRequest({ path: '/api/traces' }),
      '/api/traces (token)': await rawRequest({ path: '/api/traces', headers: AUTH }),
      'GET /v1/traces': await rawRequest({ path: '/v1/traces' }),
    };
    expect(responses['/anything'].status).toBe(404);
    expect(responses['/anything'].text).toContain('Not found');
    for (const [what, response] of Object.entries(responses)) {
      expect(response.text, `${what}: body`).not.toContain(TOKEN);
      expect(JSON.stringify(response.headers), `${what}: headers`).not.toContain(TOKEN);
      expectSecurityHeaders(what, response.headers);
    }
    // The nonce is fresh per response.
    expect(responses['/'].headers['content-security-policy']).not.toBe(responses['/runs/x'].headers['content-security-policy']);
  });

  test('every script of the page carries the nonce of its response, and each page kind renders with no CSP violation', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => violations.push(`${page.url()}: ${error.message}`));
    const expectScriptsNonced = async (response: Awaited<ReturnType<Page['goto']>>) => {
      const nonce = /'nonce-([^']+)'/.exec((await response?.allHeaders())?.['content-security-policy'] ?? '')?.[1];
      expect(nonce, 'the page response has a CSP nonce').toBeTruthy();
      const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.nonce));
      expect(scripts.length).toBeGreaterThan(0);
      expect(new Set(scripts)).toEqual(new Set([nonce]));
    };

    // Home: hydrated (the runner state comes from the API), then a run page with its graph and span tree.
    const runId = await runScenarioFromHome(page, 'parallel-pending-output', 'graph');
    await expectRunStatus(page, 'interrupted');
    await expect(page.locator('[data-testid=graph-node][data-kind=tool-interrupt]')).toHaveCount(1);
    await page.getByTestId('tab-spans').click();
    await expect(page.locator('[data-testid=span-tree] [data-testid=span-row]').first()).toBeVisible();
    await expectScriptsNonced(await page.goto(`/runs/${runId}`));
    await expect(page.locator('[data-testid=graph-node]').first()).toBeVisible();

    // A saved file: graph, the resume workbench, then a replay's page with both graphs.
    await expectScriptsNonced(await page.goto('/saved/restart-after-approval.json'));
    await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().click();
    await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await page.goto('/saved/plain-tool-round.json');
    const replayed = page.waitForResponse((response) => response.url().endsWith('/api/replay'));
    await page.getByTestId('replay-button').click();
    expect((await replayed).status()).toBe(202);
    await page.waitForURL(/\/runs\/[^/?]+$/);
    await expect(page.getByTestId('replay-verdict')).toHaveText('matches the recording');
    await expect(page.getByTestId('replayed-graph').locator('[data-testid=graph-node]').first()).toBeVisible();

    // A step-by-step run's pause panel, and the 404 page.
    await page.goto('/');
    await expect(page.getByTestId('runner-state')).toContainText('runner: ready', { timeout: 45_000 });
    await page.getByTestId('step-plain-tool-round').click();
    await page.waitForURL(/\/runs\/[^/?]+$/);
    await expect(page.getByTestId('step-panel')).toBeVisible();
    await expect(page.getByTestId('step-state')).toContainText('paused at 1 step(s)');
    await page.getByTestId('stop-button').click();
    await expectRunStatus(page, 'stopped');
    const missing = await page.goto('/no-such-page');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await expectScriptsNonced(missing);

    expect(violations).toEqual([]);
  });

  test('a page of another local origin that frames Loopscope gets nothing: the browser refuses to render the frame', async ({ page }) => {
    const framed = `${BASE_URL}/`;
    const other = await serveOtherOrigin(`<!doctype html><title>clickjacker</title><iframe id="target" src="${framed}" width="900" height="600"></iframe>`);
    try {
      const refused = page.waitForEvent('console', (message) => message.text().includes("frame-ancestors 'none'"));
      const answered = page.waitForResponse(framed);
      await page.goto(other.url);
      // The server answered the frame's request (it cannot tell), with headers that forbid framing.
      expect((await answered).headers()['x-frame-options']).toBe('DENY');
      await refused;
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(frame, 'the iframe exists').toBeTruthy();
      // Chromium shows its error page in the frame: no Loopscope content, nothing to click.
      await expect.poll(() => frame?.url()).not.toBe(framed);
      await expect(frame!.locator('.topbar')).toHaveCount(0);
      await expect(frame!.getByText('Loopscope')).toHaveCount(0);
    } finally {
      await other.close();
    }
  });
});
