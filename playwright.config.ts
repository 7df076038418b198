import { defineConfig } from '@playwright/test';

/** The e2e server: a production build on its own port, token and data folders. */
export const E2E_PORT = Number(process.env.LOOPSCOPE_E2E_PORT ?? 4799);
export const E2E_TOKEN = 'e2e-token-0123456789';
export const E2E_DATA_DIR = '.loopscope-e2e/data';
export const E2E_TRACES_DIR = '.loopscope-e2e/traces';
/** The signed-in browser state (global-setup.ts): pages open with the session cookie, as after the banner URL. */
export const E2E_STORAGE_STATE = '.loopscope-e2e/storage-state.json';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One server, one runner: tests run one at a time against it.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  // Runs after webServer is up: signs in through the real token exchange once.
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    storageState: E2E_STORAGE_STATE,
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright's browser download cannot work here.
      executablePath: process.env.LOOPSCOPE_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: 'node e2e/prepare-e2e-data.mjs && node scripts/start.js',
    url: `http://127.0.0.1:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      LOOPSCOPE_TOKEN: E2E_TOKEN,
      LOOPSCOPE_DATA_DIR: E2E_DATA_DIR,
      LOOPSCOPE_TRACES_DIR: E2E_TRACES_DIR,
      LOOPSCOPE_TOOL_TIMEOUT_MS: '8000',
    },
  },
});
