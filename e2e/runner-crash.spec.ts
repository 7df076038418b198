import { expect, test } from '@playwright/test';
import { AUTH, expectRunStatus, runScenarioFromHome, spanRowsWhere } from './helpers';

interface RunnerAnswer {
  runner: { state: string; pid?: number };
}

test('the user kills the runner while slow-tool runs, sees the run failed, and the next run still finishes', async ({ page, request }) => {
  await runScenarioFromHome(page, 'slow-tool');
  const report = spanRowsWhere(page, { role: 'tool', label: 'generateReport' });
  await expect(report).toHaveAttribute('data-outcome', 'running');

  const answer = await request.get('/api/runner', { headers: AUTH });
  expect(answer.status()).toBe(200);
  const { runner } = (await answer.json()) as RunnerAnswer;
  expect(runner.state).toBe('ready');
  expect(typeof runner.pid).toBe('number');
  const pid = runner.pid as number;
  expect(pid).not.toBe(process.pid);
  process.kill(pid, 'SIGKILL');

  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText(/runner/i);
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
