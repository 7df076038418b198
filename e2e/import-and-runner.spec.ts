import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome } from './helpers';

/** A Genkit Dev UI trace file (`.genkit/traces/<traceId>`), as genkit 1.42 writes it. */
function genkitDevUiTrace(traceId: string) {
  const rootId = '1a2b3c4d5e6f7081';
  const toolId = '3c4d5e6f708192a3';
  const base = { traceId, links: [], instrumentationLibrary: { name: 'genkit-tracer', version: 'v1' }, spanKind: 'INTERNAL', sameProcessAsParentSpan: { value: true } };
  return {
    traceId,
    displayName: 'generate',
    startTime: 1718000000100,
    endTime: 1718000000900,
    spans: {
      [rootId]: {
        ...base,
        spanId: rootId,
        startTime: 1718000000100,
        endTime: 1718000000900,
        displayName: 'generate',
        attributes: {
          'genkit:type': 'util',
          'genkit:name': 'generate',
          'genkit:isRoot': true,
          'genkit:path': '/{generate,t:util}',
          'genkit:output': '{"message":{"role":"model","content":[{"toolRequest":{"name":"bookTable","ref":"b1","input":{"people":2}},"metadata":{"interrupt":{"confirm":true}}}]},"finishReason":"interrupted"}',
          'genkit:state': 'success',
        },
        status: { code: 0 },
        timeEvents: { timeEvent: [] },
      },
      [toolId]: {
        ...base,
        spanId: toolId,
        parentSpanId: rootId,
        startTime: 1718000000500,
        endTime: 1718000000600,
        displayName: 'bookTable',
        attributes: {
          'genkit:type': 'action',
          'genkit:metadata:subtype': 'tool',
          'genkit:name': 'bookTable',
          'genkit:path': '/{generate,t:util}/{bookTable,t:action,s:tool}',
          'genkit:input': '{"people":2}',
          'genkit:state': 'error',
        },
        status: { code: 2 },
        timeEvents: { timeEvent: [{ time: 1718000000600, annotation: { description: 'exception', attributes: { 'exception.type': 'ToolInterruptError' } } }] },
      },
    },
  };
}

test('the user imports a Genkit Dev UI trace file and sees its interrupt as a pause', async ({ page }) => {
  const traceId = 'abcdef0123456789abcdef0123456789';
  await openHomeWithReadyRunner(page);
  const imported = page.waitForResponse((response) => response.url().endsWith('/api/traces/import'));
  await page.getByTestId('import-input').setInputFiles({ name: traceId, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(genkitDevUiTrace(traceId))) });
  expect((await imported).status()).toBe(201);
  await expect(page.getByTestId('import-message')).toContainText('Imported 2 spans in 1 trace(s)');
  const row = page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`);
  // The list draws only the rows in view (issue 14), and this file's times are from 2024: search it.
  await page.getByTestId('trace-search').fill(traceId);
  await expect(row).toBeVisible();
  await expect(row).toContainText('paused — waiting for an answer');
  await row.getByRole('link').click();
  await expect(page.locator('[data-testid=graph-node][data-kind=tool-interrupt]')).toHaveAttribute('data-tone', 'interrupted');
  await expect(page.locator('[data-testid=graph-node][data-kind=tool-interrupt] [data-testid=graph-node-status]')).toHaveText('paused — waiting for an answer');
});

test('the user imports a file that is not a trace and gets a clear error, nothing stored', async ({ page, request }) => {
  await openHomeWithReadyRunner(page);
  const before = (await (await request.get('/api/traces', { headers: { authorization: 'Bearer e2e-token-0123456789' } })).json()).traces.length;
  await page.getByTestId('import-input').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
  await expect(page.getByTestId('import-failures')).toHaveClass(/error-text/);
  await expect(page.getByTestId('import-failures')).toContainText('notes.json');
  await expect(page.getByTestId('imported-traces')).toHaveCount(0);
  const after = (await (await request.get('/api/traces', { headers: { authorization: 'Bearer e2e-token-0123456789' } })).json()).traces.length;
  expect(after).toBe(before);
});

test('everyday: the user imports several files at once — an extension-less Dev UI file, an empty file, a bad one — and each gets its answer, the imported ones linked at the top', async ({ page }) => {
  const first = 'abcdef0123456789abcdef0123456780';
  const second = 'abcdef0123456789abcdef0123456781';
  await openHomeWithReadyRunner(page);
  await page.getByTestId('import-input').setInputFiles([
    { name: first, mimeType: 'application/octet-stream', buffer: Buffer.from(JSON.stringify(genkitDevUiTrace(first))) },
    { name: second, mimeType: 'application/octet-stream', buffer: Buffer.from(JSON.stringify(genkitDevUiTrace(second))) },
    { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) },
    { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') },
  ]);
  await expect(page.getByTestId('import-message')).toContainText('Imported 4 spans in 2 trace(s) from 2 files');
  const links = page.getByTestId('imported-traces').getByRole('link');
  await expect(links).toHaveCount(2);
  await expect(page.getByTestId('import-failures')).toContainText('empty.json: the file is empty: nothing to import');
  await expect(page.getByTestId('import-failures')).toContainText('notes.json');
  await links.first().click();
  await expect(page).toHaveURL(new RegExp(`/traces/${first}`));
  await expect(page.locator('[data-testid=graph-node][data-kind=tool-interrupt]')).toHaveAttribute('data-tone', 'interrupted');
});

test('everyday: the user drops a trace file on the captured list and it is imported', async ({ page }) => {
  const traceId = 'abcdef0123456789abcdef0123456782';
  await openHomeWithReadyRunner(page);
  const text = JSON.stringify(genkitDevUiTrace(traceId));
  const transfer = await page.evaluateHandle(({ name, body }) => {
    const data = new DataTransfer();
    data.items.add(new File([body], name));
    return data;
  }, { name: traceId, body: text });
  await page.getByTestId('import-zone').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('import-message')).toContainText('Imported 2 spans in 1 trace(s) from');
  await expect(page.getByTestId('imported-traces').getByRole('link')).toHaveCount(1);
});

test('everyday: the user imports a whole .genkit/traces folder of extension-less files', async ({ page }) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'loopscope-e2e-genkit-'));
  const folder = path.join(root, 'traces');
  mkdirSync(folder);
  const ids = ['abcdef0123456789abcdef0123456783', 'abcdef0123456789abcdef0123456784'];
  for (const id of ids) writeFileSync(path.join(folder, id), JSON.stringify(genkitDevUiTrace(id)));
  try {
    await openHomeWithReadyRunner(page);
    await page.getByTestId('import-folder-input').setInputFiles(folder);
    await expect(page.getByTestId('import-message')).toContainText('Imported 4 spans in 2 trace(s) from 2 files');
    // The list draws only the rows in view (issue 14), and these files' times are from 2024: search them.
    await page.getByTestId('trace-search').fill('abcdef0123456789abcdef012345678');
    for (const id of ids) await expect(page.locator(`[data-testid=trace-row][data-trace-id="${id}"]`)).toBeVisible();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the user restarts the runner from the home page and the next run still finishes', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  const restarted = page.waitForResponse((response) => response.url().endsWith('/api/runner/restart'));
  await page.getByTestId('restart-runner').click();
  expect((await restarted).status()).toBe(202);
  await expect(page.getByTestId('runner-state')).toContainText('restarted from the page', { timeout: 30_000 });
  await runScenarioFromHome(page, 'plain-tool-round');
  await expectRunStatus(page, 'finished');
});

test('the home page’s live runner events carry the pool, not the catalog, which the page reads once', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  // The page's own origin and session cookie: what the home page's stream gets during one run.
  const seen = await page.evaluate(async () => {
    const source = new EventSource('/api/events');
    const runner: string[] = [];
    source.addEventListener('runner', (message) => runner.push((message as MessageEvent<string>).data));
    // Runs that ended, heard from the moment the stream opens: a quick run can end before its POST is answered.
    const ended = new Set<string>();
    let waiting: { runId: string; resolve: () => void } | undefined;
    source.addEventListener('run', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as { run: { runId: string; status: string } };
      if (event.run.status === 'running') return;
      ended.add(event.run.runId);
      if (waiting?.runId === event.run.runId) waiting.resolve();
    });
    await new Promise<void>((resolve) => source.addEventListener('ready', () => resolve(), { once: true }));
    const response = await fetch('/api/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'plain-tool-round' }) });
    const { run } = (await response.json()) as { run: { runId: string } };
    if (!ended.has(run.runId)) await new Promise<void>((resolve) => (waiting = { runId: run.runId, resolve }));
    // The pool's release comes with the run's end: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    source.close();
    const status = (await (await fetch('/api/runner')).json()) as { runner: { catalogVersion?: number; scenarios: unknown[] } };
    return { runner, catalogVersion: status.runner.catalogVersion, scenarios: status.runner.scenarios.length };
  });
  expect(seen.runner.length).toBeGreaterThan(0);
  for (const data of seen.runner) {
    const { status } = JSON.parse(data) as { status: Record<string, unknown> };
    for (const field of ['tools', 'aiSdkTools', 'models', 'scenarios', 'problems']) expect(status[field], field).toBeUndefined();
    expect(status).toMatchObject({ state: 'ready', catalogVersion: seen.catalogVersion });
    // The examples' catalog alone is ≈26 KB; the pool is a few hundred bytes.
    expect(data.length).toBeLessThan(2_000);
  }
  expect(seen.catalogVersion).toBeGreaterThan(0);
  expect(seen.scenarios).toBeGreaterThan(5);
});
