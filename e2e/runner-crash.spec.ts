import { expect, test, type APIRequestContext } from '@playwright/test';
import { AUTH, expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, spanRowsWhere } from './helpers';

interface RunnerAnswer {
  runner: { state: string; pid?: number };
}

interface RunAnswer {
  run: { traceIds: string[]; runner?: { pid?: number } };
}

async function runOf(request: APIRequestContext, runId: string): Promise<RunAnswer['run']> {
  const answer = await request.get(`/api/runs/${runId}`, { headers: AUTH });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as RunAnswer).run;
}

test('the user kills the runner while slow-tool runs, sees the run failed, and the next run still finishes', async ({ page, request }) => {
  const runId = await runScenarioFromHome(page, 'slow-tool');
  const report = spanRowsWhere(page, { role: 'tool', label: 'generateReport' });
  await expect(report).toHaveAttribute('data-outcome', 'running');

  const answer = await request.get('/api/runner', { headers: AUTH });
  expect(answer.status()).toBe(200);
  const { runner } = (await answer.json()) as RunnerAnswer;
  expect(runner.state).toBe('ready');
  // Each run has a runner process of its own: kill the one that runs this run.
  const pid = (await runOf(request, runId)).runner?.pid;
  expect(typeof pid).toBe('number');
  expect(pid).not.toBe(process.pid);
  await expect(page.getByTestId('run-runner')).toContainText(String(pid));
  process.kill(pid as number, 'SIGKILL');

  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText(/runner/i);
  await expect(page.getByTestId('run-failure')).toContainText("tool 'generateReport' (ref report-1) of this run was running");
  // The tool's span was closed as failed, not left running.
  await expect(report).toHaveAttribute('data-outcome', 'error');
  await expect
    .poll(async () => {
      const next = await request.get('/api/runner', { headers: AUTH });
      const body = (await next.json()) as RunnerAnswer;
      return body.runner.state === 'ready' && body.runner.pid !== pid;
    }, { timeout: 30_000 })
    .toBe(true);

  await runScenarioFromHome(page, 'plain-tool-round');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Lisbon');
});

test('after a tool exits its runner, the graph shows the failed nodes with the cause, and the trace is stored and listed', async ({ page, request }) => {
  const runId = await runScenarioFromHome(page, 'tool-exits-process', 'graph');
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText("The runner exited with code 3 while tool 'exitProcess' (ref exit-1) of this run was running");

  const nodes = page.locator('[data-testid=run-graph] [data-testid=graph-node]');
  const tool = nodes.and(page.locator('[data-kind="tool-call"]'));
  await expect(tool).toHaveCount(1);
  await expect(tool).toHaveAttribute('data-tone', 'error');
  await expect(tool.getByTestId('graph-node-status')).toHaveText('failed');
  await expect(tool).toHaveAttribute('title', /The runner exited with code 3 before this span ended/);
  await expect(nodes.and(page.locator('[data-kind="generate"]'))).toHaveAttribute('data-tone', 'error');
  await expect(nodes.and(page.locator('[data-kind="model-call"]'))).toHaveAttribute('data-tone', 'ok');
  await expect(page.locator('[data-testid=run-graph] [data-testid=graph-node-status]', { hasText: 'running…' })).toHaveCount(0);
  await expect(nodes.and(page.locator('[data-tone="running"]'))).toHaveCount(0);

  const [traceId] = (await runOf(request, runId)).traceIds;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  const stored = await request.get(`/api/traces/${traceId}`, { headers: AUTH });
  expect(stored.status()).toBe(200);

  await page.goto(`/traces/${traceId}`);
  await expect(page.locator('[data-testid=run-graph] [data-testid=graph-node][data-kind="tool-call"]')).toHaveAttribute('data-tone', 'error');

  await openHomeWithReadyRunner(page);
  await expect(page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`)).toBeVisible();
  // The home page shows the pool the runs are spread over.
  await expect(page.getByTestId('runner-pool')).toContainText(/\d of 4 runners busy, \d idle/);
});
