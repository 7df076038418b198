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
  await expect(page.getByTestId('import-message')).toHaveClass(/error-text/);
  await expect(page.getByTestId('import-message')).toContainText('notes.json');
  const after = (await (await request.get('/api/traces', { headers: { authorization: 'Bearer e2e-token-0123456789' } })).json()).traces.length;
  expect(after).toBe(before);
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
