import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type FullConfig } from '@playwright/test';
import { BASE_URL, STORAGE_STATE, TOKEN } from './helpers';

/**
 * Signs the browser in once, the way a user does: opens the start banner's URL
 * (`/#token=…`), lets the page exchange the token for its session cookie, and saves the
 * browser state that every test's context starts from (playwright.config.ts `storageState`).
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const launchOptions = config.projects[0]?.use.launchOptions ?? {};
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage();
    const exchanged = page.waitForResponse((response) => response.url() === `${BASE_URL}/api/session` && response.request().method() === 'POST');
    await page.goto(`${BASE_URL}/#token=${TOKEN}`);
    const response = await exchanged;
    if (response.status() !== 204) throw new Error(`The token exchange answered ${response.status()}: ${await response.text()}`);
    await page.getByTestId('runner-state').waitFor();
    mkdirSync(path.dirname(STORAGE_STATE), { recursive: true });
    await page.context().storageState({ path: STORAGE_STATE });
  } finally {
    await browser.close();
  }
}
