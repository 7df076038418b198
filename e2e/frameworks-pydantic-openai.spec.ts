import { expect, test, type Locator, type Page } from '@playwright/test';
import { importFrameworkFixture, openHomeWithReadyRunner } from './helpers';

/**
 * Agent frameworks' traces, imported as a user would send them (issue 38): a paused run and the
 * run that answered it, recorded by the real framework. The list names the framework and groups
 * the answer under the pause; the graph draws the pause in the framework's words — never an
 * error, never a tool that ran — and an answer edge from each paused call to its answer; the
 * workbench checks another answer by the framework's rules and gives it as the framework's own
 * code (Loopscope does not run these apps).
 */
test.use({ viewport: { width: 1440, height: 900 } });

const row = (page: Page, traceId: string) => page.locator(`[data-testid=trace-row][data-trace-id="${traceId}"]`);
const graphNodes = (page: Page, filter: { kind: string; text?: string }): Locator => {
  const nodes = page.locator(`[data-testid=run-graph] [data-testid=graph-node][data-kind="${filter.kind}"]`);
  return filter.text !== undefined ? nodes.filter({ hasText: filter.text }) : nodes;
};
const nodeIdOf = async (node: Locator) => (await node.getAttribute('data-node-id')) ?? '';
const answerEdges = async (page: Page) =>
  (await page.locator('[data-testid=run-graph] .react-flow__edge').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-id') ?? ''))).filter((id) => id.includes('=>'));

/** Every node on screen (React Flow draws an edge once both its nodes are measured). */
async function fitGraph(page: Page): Promise<void> {
  const zoomOut = page.locator('[data-testid=run-graph] .react-flow__controls-zoomout');
  for (let click = 0; click < 40 && (await zoomOut.isEnabled()); click++) await zoomOut.click();
  await page.locator('[data-testid=run-graph] .react-flow__controls-fitview').click();
}

/** The list: the paused run names its framework, is answered, and has its answering run under it. */
async function expectListed(page: Page, options: { paused: string; answers: string[]; runtime: string; title: string }): Promise<void> {
  await openHomeWithReadyRunner(page);
  await page.getByTestId('trace-search').fill(options.paused);
  for (const traceId of [options.paused, ...options.answers]) {
    await expect(row(page, traceId).getByTestId('trace-runtime')).toHaveText(options.title);
    await expect(row(page, traceId).getByTestId('trace-runtime')).toHaveAttribute('data-runtime', options.runtime);
  }
  await expect(row(page, options.paused).getByTestId('trace-status')).toHaveText('answered');
  for (const answer of options.answers) await expect(row(page, answer)).toHaveAttribute('data-depth', '1');
}

async function openGraph(page: Page, traceId: string): Promise<void> {
  await page.goto(`/traces/${traceId}`);
  await page.getByTestId('tab-graph').click();
  await expect(page.getByTestId('run-graph')).toBeVisible();
  await fitGraph(page);
}

/** Clicks a paused call's node and opens the workbench for its run. */
async function openWorkbench(page: Page, interrupt: Locator, runtimeTitle: string): Promise<Locator> {
  await interrupt.click();
  await page.getByTestId('open-workbench').click();
  const workbench = page.getByTestId('resume-workbench');
  await expect(workbench).toContainText(runtimeTitle);
  return workbench;
}

test('framework: Pydantic AI — a paused run and its answer: paused in its words, answer edges, its own code for another answer, named in the list', async ({ page, request }) => {
  const [paused, answering] = await importFrameworkFixture(request, { runtime: 'pydantic-ai', fixtureCase: 'v6-two-approvals-mixed' });
  await expectListed(page, { paused, answers: [answering], runtime: 'pydantic-ai', title: 'Pydantic AI' });

  await openGraph(page, paused);
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  const paris = graphNodes(page, { kind: 'tool-interrupt', text: 'book_hotel#call_book_paris' });
  const rome = graphNodes(page, { kind: 'tool-interrupt', text: 'book_hotel#call_book_rome' });
  const check = graphNodes(page, { kind: 'tool-interrupt', text: 'run_background_check#call_check_ada' });
  await expect(paris.getByTestId('graph-node-status')).toHaveText('paused: approval required (requires_approval) — answered by restart');
  await expect(rome.getByTestId('graph-node-status')).toHaveText('paused: approval required (requires_approval) — answered by respond');
  await expect(check.getByTestId('graph-node-status')).toHaveText('paused: deferred (CallDeferred) — answered by respond');
  // Nothing reads as an error or as the AI SDK's.
  await expect(page.locator('[data-testid=run-graph] [data-testid=graph-node][data-tone=error]')).toHaveCount(0);
  await expect(page.getByTestId('run-graph')).not.toContainText('stopWhen');
  const approved = graphNodes(page, { kind: 'resume-restart', text: 'book_hotel#call_book_paris' });
  const denied = graphNodes(page, { kind: 'resume-respond', text: 'book_hotel#call_book_rome' });
  await expect(approved.getByTestId('graph-node-status')).toHaveText('approved (DeferredToolResults.approvals) — the tool ran in the answering run');
  await expect(denied.getByTestId('graph-node-status')).toHaveText('denied (ToolDenied) — the tool did not run: no tool span in the answering run');
  const edges = await answerEdges(page);
  for (const [from, to] of [
    [paris, approved],
    [rome, denied],
  ]) {
    expect(edges).toContain(`${await nodeIdOf(from)}=>${await nodeIdOf(to)}`);
  }
  expect(edges).toHaveLength(3);

  // The detail panel names the framework and explains the pause in its terms.
  await rome.click();
  await expect(page.getByTestId('node-runtime')).toHaveText('Pydantic AI');
  await expect(page.getByTestId('pause-explained')).toContainText('Pydantic AI deferred this tool call');
  await expect(page.getByTestId('interrupt-paused-as')).toHaveText('Paused: approval required (requires_approval)');

  // Another answer, checked by Pydantic AI's rules and given as its own code.
  const workbench = await openWorkbench(page, rome, 'Pydantic AI');
  const romeRequest = workbench.locator('[data-testid=workbench-request][data-request="book_hotel#call_book_rome"]');
  await expect(romeRequest.getByTestId('workbench-paused-as')).toHaveText('Paused: approval required (requires_approval)');
  await expect(romeRequest.getByTestId('workbench-mode-approve')).toBeChecked();
  // Approving a call that deferred for its result runs it again, and it defers again: Pydantic AI takes it, the workbench warns.
  const checkRequest = workbench.locator('[data-testid=workbench-request][data-request="run_background_check#call_check_ada"]');
  await expect(checkRequest.getByTestId('workbench-mode-respond')).toBeChecked();
  await checkRequest.getByTestId('workbench-mode-approve').check();
  await expect(page.getByTestId('workbench-warning')).toContainText('which defers again');
  await checkRequest.getByTestId('workbench-mode-deny').check();
  await romeRequest.getByTestId('workbench-mode-deny').check();
  await romeRequest.getByTestId('workbench-reason').fill('Rome is full.');
  await expect(page.getByTestId('workbench-ok')).toHaveText('Pydantic AI would accept this answer.');
  const snippet = page.getByTestId('workbench-snippet');
  await expect(snippet).toContainText('"call_book_rome": ToolDenied("Rome is full."),');
  await expect(snippet).toContainText('"call_check_ada": ToolDenied(),');
  await expect(snippet).toContainText('result = agent.run_sync(');
  await expect(page.getByTestId('workbench-runs-elsewhere')).toContainText('Loopscope does not run Pydantic AI apps');
  await expect(page.getByTestId('workbench-resume')).toHaveCount(0);
  await workbench.locator('[data-testid=workbench-request][data-request="book_hotel#call_book_paris"]').getByTestId('workbench-mode-respond').check();
  await workbench.locator('[data-testid=workbench-request][data-request="book_hotel#call_book_paris"]').getByTestId('workbench-output').fill('"booked by phone"');
  await expect(snippet).toContainText('"call_book_paris": "booked by phone",');
});

test('framework: OpenAI Agents SDK — a paused run and its answer: paused in its words, answer edges, its own code for another answer, named in the list', async ({ page, request }) => {
  const [paused, answering] = await importFrameworkFixture(request, { runtime: 'openai-agents', fixtureCase: 'two-approvals-mixed' });
  await expectListed(page, { paused, answers: [answering], runtime: 'openai-agents', title: 'OpenAI Agents SDK' });

  await openGraph(page, paused);
  await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
  const paris = graphNodes(page, { kind: 'tool-interrupt', text: 'book_hotel#call_book_paris' });
  const rome = graphNodes(page, { kind: 'tool-interrupt', text: 'book_hotel#call_book_rome' });
  // Its tool span has no result: a pause, not a tool that ran.
  await expect(paris.getByTestId('graph-node-status')).toHaveText('paused: approval required (needs_approval) — answered by restart');
  await expect(rome.getByTestId('graph-node-status')).toHaveText('paused: approval required (needs_approval) — answered by respond');
  await expect(page.locator('[data-testid=run-graph] [data-testid=graph-node][data-tone=error]')).toHaveCount(0);
  const approved = graphNodes(page, { kind: 'resume-restart', text: 'book_hotel#call_book_paris' });
  const rejected = graphNodes(page, { kind: 'resume-respond', text: 'book_hotel#call_book_rome' });
  await expect(approved.getByTestId('graph-node-status')).toHaveText('approved (state.approve) — the tool ran in the answering run');
  await expect(rejected.getByTestId('graph-node-status')).toHaveText('rejected (state.reject) — the tool did not run: no tool span in the answering run');
  expect((await answerEdges(page)).sort()).toEqual([`${await nodeIdOf(paris)}=>${await nodeIdOf(approved)}`, `${await nodeIdOf(rome)}=>${await nodeIdOf(rejected)}`].sort());

  await paris.click();
  await expect(page.getByTestId('node-runtime')).toHaveText('OpenAI Agents SDK');
  await expect(page.getByTestId('pause-explained')).toContainText('The OpenAI Agents SDK stopped this call for an approval');
  const workbench = await openWorkbench(page, paris, 'OpenAI Agents SDK');
  // Approve and reject only: the SDK has no way to hand a pending call a result.
  await expect(workbench.getByTestId('workbench-mode-respond')).toHaveCount(0);
  const parisRequest = workbench.locator('[data-testid=workbench-request][data-request="book_hotel#call_book_paris"]');
  await parisRequest.getByTestId('workbench-mode-deny').check();
  await parisRequest.getByTestId('workbench-reason').fill('Too expensive.');
  await expect(page.getByTestId('workbench-ok')).toHaveText('OpenAI Agents SDK would accept this answer.');
  const snippet = page.getByTestId('workbench-snippet');
  await expect(snippet).toContainText('state.reject(item, rejection_message="Too expensive.")');
  await expect(snippet).toContainText('state.approve(item)');
  await expect(snippet).toContainText('result = await Runner.run(agent, state)');
  await expect(page.getByTestId('workbench-runs-elsewhere')).toContainText('Loopscope does not run OpenAI Agents apps');
});
