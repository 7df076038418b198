import { expect, test, type Page } from '@playwright/test';
import { AUTH, importFixture, openHomeWithReadyRunner } from './helpers';

/** Issue 10: what the lists, the graph and the workbench tell a user about answers must be true. */


const row = (page: Page, traceId: string) => page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`);
/** The list draws only the rows in view (issue 14): search a trace by id to bring it (and its session) into the window. */
const findTrace = (page: Page, traceId: string) => page.getByTestId('trace-search').fill(traceId);

test('trust: the trace list says answered (linking the resume), paused for a flow that ended interrupted, and counts failed tools', async ({ page, request }) => {
  const [interrupted, resume] = await importFixture(request, 'interrupt-restart');
  const [flow] = await importFixture(request, 'flow-two-generates');
  const [failed] = await importFixture(request, 'tool-error');
  await openHomeWithReadyRunner(page);

  await findTrace(page, interrupted);
  await expect(row(page, interrupted).getByTestId('trace-status')).toHaveAttribute('data-status', 'answered');
  await expect(row(page, interrupted).getByTestId('trace-status')).toHaveText('answered');
  await expect(row(page, interrupted).getByTestId('trace-answered-by').getByRole('link')).toHaveAttribute('href', `/traces/${resume}`);
  await expect(row(page, resume).getByTestId('trace-status')).toHaveAttribute('data-status', 'ok');

  // The flow span succeeded, but its second generate is waiting for an answer.
  await findTrace(page, flow);
  await expect(row(page, flow).getByTestId('trace-status')).toHaveAttribute('data-status', 'interrupted');
  await expect(row(page, flow).getByTestId('trace-status')).toHaveText('paused — waiting for an answer');

  await findTrace(page, failed);
  await expect(row(page, failed).getByTestId('trace-status')).toHaveAttribute('data-status', 'error');
  await expect(row(page, failed).getByTestId('trace-failed-tools')).toHaveText('1 tool failed');
});

test('trust: an answer edge the recorded content cannot prove is drawn as a guess and says what else it could answer', async ({ page, request }) => {
  const [first, second, firstResume] = await importFixture(request, 'identical-conversations');
  // Two identical conversations: the first resume took the nearest interrupt (the second), one
  // answer each. The page draws one session, with the store's decision: a guess whose
  // alternative lives in a trace of another session.
  await page.goto(`/traces/${second}`);
  await expect(page.locator('[data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  const guess = page.locator('[data-testid=run-graph] .react-flow__edge').filter({ hasText: 'could also answer' });
  await expect(guess).toHaveCount(1);
  await expect(guess).toContainText(`answered by? could also answer a generate of trace ${first.slice(0, 8)}`);
  await page.locator(`[data-testid=graph-node][data-kind=generate][data-node-id^="${firstResume}:"]`).click();
  await expect(page.getByTestId('resume-ambiguous')).toContainText('cannot tell which interrupt this resume answers');
  await expect(page.getByTestId('resume-link-evidence')).toContainText('matched by its whole conversation');
});

test('trust: resuming a trace whose model is not defined here is refused before anything runs, naming the model', async ({ page, request }) => {
  const [interrupted] = await importFixture(request, 'interrupt-restart');
  await openHomeWithReadyRunner(page);
  await page.goto(`/traces/${interrupted}`);
  await page.locator(`[data-testid=graph-node][data-kind=tool-interrupt][data-node-id^="${interrupted}:"]`).click();
  await page.getByTestId('open-workbench').click();
  const answer = page.locator('[data-testid=workbench-request][data-request="transferMoney#tx1"]');
  await answer.getByTestId('workbench-mode-restart').check();
  await answer.getByTestId('workbench-resumed').fill('{"approvedBy": "carol"}');
  // The live check already says it cannot run here, and Resume stays off.
  await expect(page.getByTestId('workbench-error')).toContainText('called model "fixture/interrupt-restart", which is not defined here');
  await expect(page.getByTestId('workbench-error')).toContainText('replay the trace instead');
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  // The server refuses it too, before anything runs, with the same sentence.
  const refused = await request.post('/api/resume', {
    headers: AUTH,
    data: { source: { traceIds: [interrupted] }, respond: [], restart: [{ name: 'transferMoney', ref: 'tx1', resumed: { approvedBy: 'carol' } }] },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.message).toContain('which is not defined here');
});
