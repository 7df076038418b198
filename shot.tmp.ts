import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
const port = 4791;
const child = spawn(process.execPath, ['scripts/start.js'], { env: { ...process.env, PORT: String(port), LOOPSCOPE_TOKEN: 'shot-token-0123456789', LOOPSCOPE_DATA_DIR: '/tmp/shot-data', LOOPSCOPE_TRACES_DIR: 'traces' }, stdio: ['ignore', 'pipe', 'pipe'] });
let out = ''; child.stdout.on('data', (c) => (out += c)); child.stderr.on('data', (c) => (out += c));
while (!out.includes('Loopscope is running')) await new Promise((r) => setTimeout(r, 200));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [w, h] of [[1280, 720], [1920, 1080]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(`http://127.0.0.1:${port}/#token=shot-token-0123456789`);
  await page.getByTestId('runner-state').filter({ hasText: 'ready' }).waitFor({ timeout: 45000 });
  await page.goto(`http://127.0.0.1:${port}/saved/ai-sdk-approval-approved.json`);
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  await page.getByTestId('workbench-reason').fill('known payee');
  await page.getByTestId('workbench-ok').waitFor();
  await page.screenshot({ path: `/tmp/shot-wb-${w}.png` });
  await page.getByTestId('workbench-payload').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shot-wb-payload-${w}.png` });
}
await browser.close();
child.kill();
