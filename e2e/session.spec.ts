import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { AUTH, BASE_URL, PORT, rawRequest, serveOtherOrigin, sessionCookieHeader, TOKEN } from './helpers';

/** The page's own check of its session, run inside the page (so it carries the cookie and Sec-Fetch-Site). */
async function sessionStatus(page: Page): Promise<number> {
  return page.evaluate(async () => (await fetch('/api/session', { cache: 'no-store' })).status);
}

async function expectPrompt(page: Page): Promise<void> {
  const prompt = page.getByRole('dialog', { name: /Loopscope needs its token/ });
  await expect(prompt).toBeVisible();
  // It names where the token is printed.
  await expect(prompt).toContainText('start banner');
  await expect(prompt).toContainText('npm start');
  await expect(prompt).toContainText('➜ Open:');
  await expect(prompt.getByLabel('Token or ➜ Open: URL')).toBeFocused();
}

test.describe('a browser without a session', () => {
  // A fresh browser: none of the session global-setup.ts made.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a page opened without the token asks for it, naming where it is printed, and shows nothing else', async ({ page }) => {
    const checked = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/session`);
    await page.goto('/');
    expect((await checked).status()).toBe(401);
    await expectPrompt(page);
    await expect(page.getByTestId('runner-state')).toHaveCount(0);
  });

  test('pasting the token gets in, with Enter; the cookie is HttpOnly, SameSite=Strict and is not the token', async ({ page, context }) => {
    await page.goto('/runs/not-a-run');
    await expectPrompt(page);
    await page.getByLabel('Token or ➜ Open: URL').fill(TOKEN);
    const exchanged = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/session` && response.request().method() === 'POST');
    await page.getByLabel('Token or ➜ Open: URL').press('Enter');
    expect((await exchanged).status()).toBe(204);
    await expect(page.getByTestId('token-prompt')).toHaveCount(0);
    // The page behind the prompt is the one that was asked for, and it works.
    await expect(page.locator('main')).toContainText('not-a-run');
    expect(await sessionStatus(page)).toBe(200);
    const cookies = await context.cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: `loopscope_session_${PORT}`, httpOnly: true, sameSite: 'Strict', path: '/' })]);
    expect(cookies[0].value).not.toContain(TOKEN);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  test('pasting the whole banner URL gets in too', async ({ page }) => {
    await page.goto('/');
    await expectPrompt(page);
    await page.getByLabel('Token or ➜ Open: URL').fill(`  ${BASE_URL}/#token=${TOKEN}\n`);
    await page.getByRole('button', { name: 'Open Loopscope' }).click();
    await expect(page.getByTestId('runner-state')).toBeVisible();
    await expect(page.getByTestId('token-prompt')).toHaveCount(0);
  });

  test('the banner URL /#token=… gets in, and the token leaves the address bar', async ({ page }) => {
    const exchanged = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/session` && response.request().method() === 'POST');
    await page.goto(`/#token=${TOKEN}`);
    expect((await exchanged).status()).toBe(204);
    await expect(page.getByTestId('runner-state')).toBeVisible();
    expect(page.url()).toBe(`${BASE_URL}/`);
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    expect(await sessionStatus(page)).toBe(200);
    // A new tab (same browser) is in without the token.
    const second = await page.context().newPage();
    await second.goto('/');
    await expect(second.getByTestId('runner-state')).toBeVisible();
  });

  test('the banner URL pasted into a tab already showing the prompt gets in (only the fragment changes: no reload)', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Loopscope needs its token' })).toBeVisible();
    const exchanged = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/session` && response.request().method() === 'POST');
    await page.goto(`/#token=${TOKEN}`);
    expect((await exchanged).status()).toBe(204);
    await expect(page.getByTestId('runner-state')).toBeVisible();
    expect(await page.evaluate(() => window.location.hash)).toBe('');
  });

  test('a deep link with the token keeps its path and query, without the fragment', async ({ page }) => {
    await page.goto(`/saved/plain-tool-round.json?tab=spans#token=${TOKEN}`);
    await expect(page.getByTestId('span-tree')).toBeVisible();
    expect(page.url()).toBe(`${BASE_URL}/saved/plain-tool-round.json?tab=spans`);
  });

  test('a wrong token is refused with a sentence, and gives no session', async ({ page }) => {
    await page.goto('/#token=not-the-token');
    await expectPrompt(page);
    await expect(page.getByTestId('token-error')).toHaveText('The server refused that token: copy the ➜ Open: URL (or the ➜ Token: value) from the start banner again.');
    expect(page.url()).toBe(`${BASE_URL}/`);
    expect(await sessionStatus(page)).toBe(401);
    // An empty field is refused before anything is sent.
    await page.getByLabel('Token or ➜ Open: URL').fill('   ');
    await page.getByLabel('Token or ➜ Open: URL').press('Enter');
    await expect(page.getByTestId('token-error')).toHaveText('Paste the token, or the whole ➜ Open: URL, into the field first.');
  });

  test('a stale cookie (the server restarted with a new token) brings the prompt', async ({ page, context }) => {
    await context.addCookies([{ name: `loopscope_session_${PORT}`, value: 'an-hmac-of-an-earlier-token', url: BASE_URL, httpOnly: true, sameSite: 'Strict' }]);
    await page.goto('/');
    await expectPrompt(page);
  });

  test('an API call that gets 401 later brings the prompt back over the page, and the page goes on after the token', async ({ page, context }) => {
    await page.goto(`/#token=${TOKEN}`);
    await expect(page.getByTestId('runner-state')).toContainText('runner: ready', { timeout: 45_000 });
    // As after a restart with a new token: the browser's cookie no longer opens the server.
    await context.clearCookies();
    const refused = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/runs` && response.request().method() === 'POST');
    await page.getByTestId('run-plain-tool-round').click();
    expect((await refused).status()).toBe(401);
    await expect(page.getByRole('dialog', { name: 'Loopscope needs its token again' })).toBeVisible();
    // What the page showed is still there behind the prompt.
    await expect(page.getByTestId('run-plain-tool-round')).toBeAttached();
    await page.getByLabel('Token or ➜ Open: URL').fill(TOKEN);
    await page.getByLabel('Token or ➜ Open: URL').press('Enter');
    await expect(page.getByTestId('token-prompt')).toHaveCount(0);
    const started = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/runs` && response.request().method() === 'POST');
    await page.getByTestId('run-plain-tool-round').click();
    expect((await started).status()).toBeLessThan(300);
    await page.waitForURL(/\/runs\/[^/?]+$/);
  });
});

test.describe('the session cookie opens the API only to the page itself', () => {
  test('same-origin requests with the cookie pass; without Sec-Fetch-Site (not a browser page) the cookie is ignored', async () => {
    const cookie = await sessionCookieHeader();
    const fromPage = await rawRequest({ path: '/api/traces', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(fromPage.status).toBe(200);
    const noMetadata = await rawRequest({ path: '/api/traces', headers: { cookie } });
    expect(noMetadata.status).toBe(401);
    expect(noMetadata.text).not.toContain('"traces"');
  });

  test('a POST with the cookie but a foreign Origin is 403, and one without any Origin is 403', async ({ request }) => {
    const cookie = await sessionCookieHeader();
    const runsBefore = ((await (await request.get('/api/runs', { headers: AUTH })).json()) as { runs: unknown[] }).runs.length;
    const foreign = await rawRequest({
      method: 'POST',
      path: '/api/runs',
      headers: { cookie, 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:9', 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'plain-tool-round' }),
    });
    expect(foreign.status).toBe(403);
    const noOrigin = await rawRequest({
      method: 'POST',
      path: '/api/runs',
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'plain-tool-round' }),
    });
    expect(noOrigin.status).toBe(403);
    expect(JSON.parse(noOrigin.text).error.message).toContain('Origin');
    const runsAfter = ((await (await request.get('/api/runs', { headers: AUTH })).json()) as { runs: unknown[] }).runs.length;
    expect(runsAfter).toBe(runsBefore);
  });

  test('a request with the cookie and Sec-Fetch-Site: cross-site or same-site (another localhost port) is 403', async () => {
    const cookie = await sessionCookieHeader();
    for (const site of ['cross-site', 'same-site']) {
      const refused = await rawRequest({ path: '/api/traces', headers: { cookie, 'sec-fetch-site': site } });
      expect(refused.status, site).toBe(403);
      expect(refused.text).toContain(`Sec-Fetch-Site: ${site}`);
    }
  });

  test('a page on another local port cannot use the cookie: its cross-origin GET and POST are refused', async ({ page }) => {
    // The e2e browser holds the session (global-setup.ts); a page of another origin on
    // 127.0.0.1 is same-site, so SameSite=Strict sends the cookie along: the guard must refuse.
    const other = await serveOtherOrigin('<!doctype html><title>another local app</title>');
    try {
      await page.goto(other.url);
      const get = page.waitForResponse(`${BASE_URL}/api/traces`);
      const post = page.waitForResponse(`${BASE_URL}/api/runner/restart`);
      await page.evaluate((base) => {
        void fetch(`${base}/api/traces`, { mode: 'no-cors', credentials: 'include' }).catch(() => {});
        void fetch(`${base}/api/runner/restart`, { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => {});
      }, BASE_URL);
      // 403, not 401: the browser did send the cookie (a GET without it is 401), and the
      // guard refused it for Sec-Fetch-Site: same-site — SameSite=Strict let it through.
      expect((await get).status()).toBe(403);
      // The POST carries the other page's Origin.
      expect((await post).status()).toBe(403);
    } finally {
      await other.close();
    }
  });

  test('scripts keep using the bearer token, and ?token= on the event stream', async () => {
    expect((await rawRequest({ path: '/api/traces', headers: AUTH })).status).toBe(200);
    const stream = await new Promise<number>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port: PORT, path: `/api/events?token=${TOKEN}`, headers: { host: `127.0.0.1:${PORT}` } }, (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
    });
    expect(stream).toBe(200);
  });

  test('POST /api/session needs the bearer token: no cookie for a wrong one', async () => {
    const wrong = await rawRequest({ method: 'POST', path: '/api/session', headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });
});
