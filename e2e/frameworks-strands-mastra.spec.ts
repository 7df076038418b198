import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buildRunGraph } from '../lib/graph/build-run-graph';
import { loadTraceFile } from '../lib/store/load-trace-file';
import { openHomeWithReadyRunner } from './helpers';

/**
 * Issue 38 for Strands Agents and Mastra: a recorded paused run and the run that answered it,
 * imported as the user would import them, are drawn in the framework's words — the pause as a
 * pause, the answer edge from it to the answer — the trace list names the framework, and the
 * workbench checks another answer by the framework's rules and gives it as the framework's own
 * code (Loopscope does not run these apps: the code is the answer).
 */
test.use({ viewport: { width: 1440, height: 900 } });

const fixture = (runtime: string, fixtureCase: string) => path.join(process.cwd(), 'lib', 'runtimes', runtime, '__fixtures__', `${fixtureCase}.otlp.json`);

/** The ids the graph gives the paused call and its answer (the same builder the page uses). */
async function answerOf(file: string): Promise<{ pausedTraceId: string; callId: string; answerId: string }> {
  const graph = buildRunGraph(await loadTraceFile(file));
  const edge = graph.edges.find((candidate) => candidate.kind === 'answer');
  if (!edge) throw new Error(`${file} has no answer edge`);
  const paused = graph.generates.find((generate) => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)].some((call) => call.id === edge.source));
  return { pausedTraceId: paused!.traceId, callId: edge.source, answerId: edge.target };
}

const cssString = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const flowNode = (page: Page, id: string): Locator => page.locator(`[data-testid=run-graph] .react-flow__node[data-id="${cssString(id)}"]`);
const flowEdge = (page: Page, id: string): Locator => page.locator(`[data-testid=run-graph] .react-flow__edge[data-id="${cssString(id)}"]`);

async function importFile(page: Page, file: string): Promise<void> {
  await openHomeWithReadyRunner(page);
  const imported = page.waitForResponse((response) => response.url().endsWith('/api/traces/import'));
  await page.getByTestId('import-input').setInputFiles({ name: path.basename(file), mimeType: 'application/json', buffer: readFileSync(file) });
  expect((await imported).status()).toBe(201);
}

test('framework: a Strands Agents hook pause and its denial — drawn in Strands’ words, linked, answered with interrupt responses', async ({ page }) => {
  const file = fixture('strands', 'events-hook-deny');
  const { pausedTraceId, callId, answerId } = await answerOf(file);
  await importFile(page, file);
  await expect(page.getByTestId('import-message')).toContainText('in 2 trace(s)');

  // The list names the framework.
  await page.getByTestId('trace-search').fill(pausedTraceId);
  const row = page.locator(`[data-testid=trace-row][data-trace-id="${pausedTraceId}"]`);
  await expect(row.getByTestId('trace-runtime')).toHaveAttribute('data-runtime', 'strands');
  await expect(row.getByTestId('trace-runtime')).toHaveText('Strands Agents');
  await row.getByTestId('trace-title').click();

  // The pause, in Strands' words (never an error, a tool that ran or "never ran"), answered by the denial.
  const paused = flowNode(page, callId).getByTestId('graph-node');
  await expect(paused).toHaveAttribute('data-kind', 'tool-interrupt');
  await expect(paused).toHaveAttribute('data-tone', 'interrupted');
  await expect(paused.getByTestId('graph-node-status')).toHaveText('paused: held by a hook (interrupt approve-booking-paris) — answered by respond');
  const denial = flowNode(page, answerId).getByTestId('graph-node');
  await expect(denial).toHaveAttribute('data-kind', 'resume-respond');
  await expect(denial.getByTestId('graph-node-status')).toContainText('denied by the hook — the tool did not run (no execute_tool span in the answering run)');
  await expect(flowEdge(page, `${callId}=>${answerId}`)).toHaveCount(1);

  // Another answer, checked by Strands' rules and given as the app's own Python.
  await paused.click();
  await page.getByTestId('open-workbench').click();
  const workbench = page.getByTestId('resume-workbench');
  await expect(workbench).toContainText('Strands Agents');
  const request = page.locator('[data-testid=workbench-request][data-request="book_hotel#tooluse_book_paris"]');
  await expect(request.getByTestId('workbench-paused-as')).toHaveText('Paused: held by a hook (interrupt approve-booking-paris)');
  await expect(request.getByTestId('workbench-mode-value')).toBeChecked();
  await request.getByTestId('workbench-value').fill('{"approved": true}');
  await expect(page.getByTestId('workbench-ok')).toHaveText('Strands Agents would accept this answer.');
  const snippet = page.getByTestId('workbench-snippet');
  await expect(snippet).toContainText('"interruptId": "v1:before_tool_call:tooluse_book_paris:7d6c7ca3-7c5a-5c0f-85bd-0886f61d34f8"');
  await expect(snippet).toContainText('"response": {"approved": True}');
  await expect(snippet).toContainText('result = agent(responses)');
  await expect(page.getByTestId('workbench-resume')).toHaveCount(0);
  // A None response is accepted by Strands, which pauses again on it: Loopscope warns so.
  await request.getByTestId('workbench-value').fill('null');
  await expect(page.getByTestId('workbench-warning')).toContainText('A None response is no response: Strands accepts it and pauses again');
});

test('framework: a Mastra approval and its decline in one trace — drawn in Mastra’s words, linked, answered with approveToolCall', async ({ page }) => {
  const file = fixture('mastra', 'approval-decline');
  const { pausedTraceId, callId, answerId } = await answerOf(file);
  await importFile(page, file);
  await expect(page.getByTestId('import-message')).toContainText('in 1 trace(s)');

  await page.getByTestId('trace-search').fill(pausedTraceId);
  const row = page.locator(`[data-testid=trace-row][data-trace-id="${pausedTraceId}"]`);
  await expect(row.getByTestId('trace-runtime')).toHaveAttribute('data-runtime', 'mastra');
  await expect(row.getByTestId('trace-runtime')).toHaveText('Mastra');
  await row.getByTestId('trace-title').click();

  // Both runs are drawn, though Mastra records the answering run inside the paused run's trace.
  await expect(page.locator('[data-testid=run-graph] [data-testid=graph-node][data-kind=generate]')).toHaveCount(2);
  const paused = flowNode(page, callId).getByTestId('graph-node');
  await expect(paused).toHaveAttribute('data-kind', 'tool-interrupt');
  await expect(paused.getByTestId('graph-node-status')).toHaveText('paused: approval required (requireApproval) — answered by respond');
  const decline = flowNode(page, answerId).getByTestId('graph-node');
  await expect(decline.getByTestId('graph-node-status')).toContainText('declined (declineToolCall): "The user changed plans: no booking tonight." — the tool did not run (no execute_tool span)');
  await expect(flowEdge(page, `${callId}=>${answerId}`)).toHaveCount(1);

  await paused.click();
  await page.getByTestId('open-workbench').click();
  await expect(page.getByTestId('resume-workbench')).toContainText('Mastra');
  const request = page.locator('[data-testid=workbench-request][data-request="book_table#call_book_table"]');
  await expect(request.getByTestId('workbench-mode-approve')).toBeChecked();
  await expect(page.getByTestId('workbench-ok')).toHaveText('Mastra would accept this answer.');
  const snippet = page.getByTestId('workbench-snippet');
  await expect(snippet).toContainText('await agent.approveToolCall({ runId, toolCallId: "call_book_table" })');
  await expect(snippet).toContainText('mastra.getAgentById("dinner-agent")');
  // Resume data that is no approval leaves the call suspended: Mastra accepts it, Loopscope warns.
  await request.getByTestId('workbench-mode-value').check();
  await request.getByTestId('workbench-value').fill('{"status": "booked by phone"}');
  await expect(page.getByTestId('workbench-warning')).toContainText('leaves it suspended');
  await expect(snippet).toContainText('await agent.resumeStream({ "status": "booked by phone" }, { runId, toolCallId: "call_book_table" })');
});
