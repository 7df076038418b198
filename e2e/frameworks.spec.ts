import { expect, test, type Page } from '@playwright/test';
import { importFrameworkFixture, openHomeWithReadyRunner } from './helpers';

/**
 * Agent frameworks Loopscope reads but does not run (issue 38): a paused run and the run that
 * answered it, recorded from the real framework (lib/runtimes/<runtime>/__fixtures__/), imported
 * as a user imports a trace file. The trace list names the framework; the pause is drawn as a
 * pause in the framework's words (never an error), with the answer edge to the run that answered
 * it; the workbench checks another answer by the framework's rules and gives it as the
 * framework's own code to paste (Loopscope runs nothing).
 */
interface FrameworkCase {
  runtime: string;
  fixtureCase: string;
  title: string;
  /** The paused call (tool name#call id) and the words its node shows. */
  paused: { request: string; status: RegExp };
  /** Another answer than the recorded one: the workbench mode to pick, an optional reason, and what the code then holds. */
  answer: { mode: 'approve' | 'deny' | 'respond' | 'value'; reason?: string; code: string[] };
}

const CASES: FrameworkCase[] = [
  {
    runtime: 'google-adk',
    fixtureCase: 'confirmation-approve',
    title: 'Google ADK',
    paused: { request: 'book_table#call_book_table', status: /^paused: approval required \(FunctionTool require_confirmation\) — answered by restart$/ },
    answer: { mode: 'deny', code: ['name="adk_request_confirmation"', 'response={"confirmed": False}', 'async def answer_pause(runner, session_service'] },
  },
  {
    runtime: 'langgraph',
    fixtureCase: 'genai-tool-interrupt-approve',
    title: 'LangGraph',
    paused: { request: 'book_table#call_book_table', status: /^paused: interrupt \(in the tool\) — answered by restart$/ },
    answer: { mode: 'deny', reason: 'not tonight', code: ['from langgraph.types import Command', '"d1420f1edcede70cb6fa1e9cbc130a4c": {"type": "reject", "message": "not tonight"}', 'config = {"configurable": {"thread_id": "thread-9f8465be"}}'] },
  },
  {
    runtime: 'langgraph',
    fixtureCase: 'openinference-review-interrupt-reject',
    title: 'LangGraph',
    paused: { request: 'book_table#call_book_table', status: /^paused: interrupt \(in the human_review node\) — answered by respond$/ },
    answer: { mode: 'approve', code: ['Command(resume=', '{"type": "approve"}'] },
  },
];

/** Zooms out and fits the graph, so React Flow measures every node and draws every edge. */
async function fitGraph(page: Page): Promise<void> {
  const zoomOut = page.locator('[data-testid=run-graph] .react-flow__controls-zoomout');
  for (let click = 0; click < 40 && (await zoomOut.isEnabled()); click++) await zoomOut.click();
  await page.locator('[data-testid=run-graph] .react-flow__controls-fitview').click();
}

for (const kase of CASES) {
  test(`framework ${kase.title} (${kase.fixtureCase}): listed by name, the pause drawn in its words with its answer edge, another answer given as its code`, async ({ page, request }) => {
    const [paused, answering] = await importFrameworkFixture(request, kase);
    expect(answering).toBeDefined();

    // The trace list names the framework, and lists the paused run as answered by the other.
    await openHomeWithReadyRunner(page);
    await page.getByTestId('trace-search').fill(paused);
    const row = page.locator(`[data-testid=trace-row][data-trace-id="${paused}"]`);
    await expect(row.getByTestId('trace-runtime')).toHaveText(kase.title);
    await expect(row.getByTestId('trace-runtime')).toHaveAttribute('data-runtime', kase.runtime);
    await expect(row.getByTestId('trace-status')).toHaveText('answered');

    // The session: the pause in the framework's words, never an error, and the answer edge from it.
    await page.goto(`/traces/${paused}`);
    await expect(page.getByTestId('run-graph')).toBeVisible();
    await fitGraph(page);
    const pause = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').filter({ hasText: kase.paused.request });
    await expect(pause).toHaveCount(1);
    await expect(pause).toHaveAttribute('data-tone', 'interrupted');
    await expect(pause.getByTestId('graph-node-status')).toHaveText(kase.paused.status);
    const pauseId = (await pause.getAttribute('data-node-id')) as string;
    // The answer edge (`a=>b`) from the pause to the answering run's answer, once React Flow drew the edges.
    const answerEdges = () => page.locator('[data-testid=run-graph] .react-flow__edge').evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-id') ?? '').filter((id) => id.includes('=>')));
    await expect.poll(async () => (await answerEdges()).filter((id) => id.startsWith(`${pauseId}=>${answering}:`)).length).toBe(1);
    await expect(page.locator('[data-testid=graph-node][data-tone=error]')).toHaveCount(0);

    // The detail panel names the framework and the pause; the workbench checks another answer by its rules.
    await pause.click();
    await expect(page.getByTestId('node-runtime')).toHaveText(kase.title);
    await expect(page.getByTestId('interrupt-paused-as')).toContainText('Paused:');
    await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
    const workbench = page.getByTestId('resume-workbench');
    await expect(workbench).toContainText(kase.title);
    const requestItem = page.locator(`[data-testid=workbench-request][data-request="${kase.paused.request}"]`);
    await expect(requestItem.getByTestId('workbench-paused-as')).toBeVisible();
    await requestItem.getByTestId(`workbench-mode-${kase.answer.mode}`).check();
    if (kase.answer.reason) await requestItem.getByTestId('workbench-reason').fill(kase.answer.reason);
    await expect(page.getByTestId('workbench-ok')).toHaveText(`${kase.title} would accept this answer.`);
    const snippet = page.getByTestId('workbench-snippet');
    await expect(snippet).toHaveAttribute('data-checked', 'true');
    for (const line of kase.answer.code) await expect(snippet).toContainText(line);
    // Loopscope runs nothing for a framework it does not run: it says so, and offers the code.
    await expect(page.getByTestId('workbench-runs-elsewhere')).toContainText(`Loopscope does not run ${kase.title} apps`);
    await expect(page.getByTestId('workbench-resume')).toHaveCount(0);
  });
}

test('framework: an ADK long-running call is a pause in ADK’s words, and a wrong answer to it is refused with ADK’s own error', async ({ page, request }) => {
  const [paused] = await importFrameworkFixture(request, { runtime: 'google-adk', fixtureCase: 'long-running-result' });
  await page.goto(`/traces/${paused}`);
  await expect(page.getByTestId('run-graph')).toBeVisible();
  const pause = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').filter({ hasText: 'request_refund#call_request_refund' });
  await expect(pause.getByTestId('graph-node-status')).toContainText('paused: long-running — waiting for its final result');
  await pause.click();
  await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
  const requestItem = page.locator('[data-testid=workbench-request][data-request="request_refund#call_request_refund"]');
  await expect(requestItem).toHaveAttribute('data-waiting-for', 'result');
  await requestItem.getByTestId('workbench-mode-value').check();
  await requestItem.getByTestId('workbench-value').fill('7');
  await expect(page.getByTestId('workbench-error').first()).toContainText('ValidationError: 1 validation error for FunctionResponse');
  await requestItem.getByTestId('workbench-value').fill('{"status": "approved", "amount": 40}');
  await expect(page.getByTestId('workbench-ok')).toHaveText('Google ADK would accept this answer.');
  await expect(page.getByTestId('workbench-snippet')).toContainText('response={"status": "approved", "amount": 40}');
});
