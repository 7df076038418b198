import { spawn } from 'node:child_process';
import { mkdtempSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
const port = 4791;
const token = 'shots-token-123456789012345678901234';
const data = mkdtempSync(path.join(os.tmpdir(), 'shots-'));
cpSync('traces', path.join(data, 'traces'), { recursive: true });
const server = spawn(process.execPath, ['scripts/start.js'], { env: { ...process.env, PORT: String(port), LOOPSCOPE_TOKEN: token, LOOPSCOPE_DATA_DIR: path.join(data, 'captured'), LOOPSCOPE_TRACES_DIR: path.join(data, 'traces') }, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
server.stdout.on('data', (c) => (out += c));
server.stderr.on('data', (c) => (out += c));
while (!out.includes('Loopscope is running')) await new Promise((r) => setTimeout(r, 200));
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
try {
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.goto(`${base}/#token=${token}`);
    await page.waitForSelector('[data-testid=scenario-card]');
    // A Go hold, live.
    const posted = await (await fetch(`${base}/api/runs`, { method: 'POST', headers: auth, body: JSON.stringify({ scenario: 'go-tool-approval-approved' }) })).json();
    const runId = posted.run.runId;
    await page.goto(`${base}/runs/${runId}`);
    await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().waitFor({ timeout: 120000 });
    await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first().click();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/work/shots/go-hold-${w}.png` });
    await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
    await page.getByTestId('workbench-ok').waitFor({ timeout: 60000 });
    await page.getByTestId('workbench-snippet').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/work/shots/go-workbench-${w}.png` });
    // Home with the Go runner line.
    await page.goto(`${base}/`);
    await page.getByTestId('go-runner').waitFor();
    await page.getByTestId('go-runner').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/work/shots/home-${w}.png` });
    // Go stepping.
    const stepped = await (await fetch(`${base}/api/runs`, { method: 'POST', headers: auth, body: JSON.stringify({ scenario: 'go-plain-tool-round', mode: { kind: 'step' } }) })).json();
    await page.goto(`${base}/runs/${stepped.run.runId}`);
    await page.getByTestId('step-panel').waitFor({ timeout: 60000 }).catch(() => {});
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/work/shots/go-step-${w}.png` });
    await fetch(`${base}/api/runs/${stepped.run.runId}/stop`, { method: 'POST', headers: auth, body: '{}' });
    // Go replay of a saved trace.
    await page.goto(`${base}/saved/go-restart-after-approval.json`);
    await page.getByTestId('replay-button').click();
    await page.waitForTimeout(6000);
    await page.screenshot({ path: `/work/shots/go-replay-${w}.png` });
    await page.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
console.log('done');
