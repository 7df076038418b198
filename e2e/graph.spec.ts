import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectRunStatus, openHomeWithReadyRunner, rawRequest, runScenarioFromHome } from './helpers';

const SHOTS = 'test-results/screenshots';

test.use({ viewport: { width: 1440, height: 900 } });

// ---------------------------------------------------------------------------------------------
// Small helpers for the graph
// ---------------------------------------------------------------------------------------------

/** Our node boxes inside the graph, optionally filtered by kind / tone / text. */
function graphNodes(page: Page, filter: { kind?: string; tone?: string; text?: string | RegExp } = {}): Locator {
  let selector = '[data-testid=run-graph] [data-testid=graph-node]';
  if (filter.kind) selector += `[data-kind="${filter.kind}"]`;
  if (filter.tone) selector += `[data-tone="${filter.tone}"]`;
  const nodes = page.locator(selector);
  return filter.text !== undefined ? nodes.filter({ hasText: filter.text }) : nodes;
}

/** React Flow's wrapper of a node, by node id. */
function flowNode(page: Page, nodeId: string): Locator {
  return page.locator(`[data-testid=run-graph] .react-flow__node[data-id="${cssString(nodeId)}"]`);
}

/** React Flow's edge element, by edge id. */
function flowEdge(page: Page, edgeId: string): Locator {
  return page.locator(`[data-testid=run-graph] .react-flow__edge[data-id="${cssString(edgeId)}"]`);
}

function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

async function nodeIdOf(node: Locator): Promise<string> {
  const id = await node.getAttribute('data-node-id');
  expect(id, 'graph node has a data-node-id').toBeTruthy();
  return id!;
}

/** The graph's node ids and edge ids as rendered (`a->b` flow, `a=>b` answer). */
async function renderedEdges(page: Page): Promise<{ id: string; source: string; target: string; kind: 'flow' | 'answer' }[]> {
  const ids = await page.locator('[data-testid=run-graph] .react-flow__edge').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-id') ?? ''));
  return ids.map((id) => {
    const answer = id.indexOf('=>');
    if (answer >= 0) return { id, source: id.slice(0, answer), target: id.slice(answer + 2), kind: 'answer' as const };
    const flow = id.indexOf('->');
    return { id, source: id.slice(0, flow), target: id.slice(flow + 2), kind: 'flow' as const };
  });
}

/**
 * Brings every node on screen: zooms all the way out first, so that React Flow renders (and
 * measures) every node — with onlyRenderVisibleElements, nodes off screen are never measured
 * and React Flow's fit view ignores unmeasured nodes — then presses the "fit view" control.
 */
async function fitGraph(page: Page): Promise<void> {
  const zoomOut = page.locator('[data-testid=run-graph] .react-flow__controls-zoomout');
  for (let click = 0; click < 40 && (await zoomOut.isEnabled()); click++) await zoomOut.click();
  // The fit is immediate (no animation); the assertions that follow retry until they hold.
  await page.locator('[data-testid=run-graph] .react-flow__controls-fitview').click();
}

/**
 * Reloads the page, so the graph is drawn once from all stored spans (no live updates), then
 * fits it. Used before edge assertions: on the live page React Flow nodes can stay unmeasured
 * after live updates, and unmeasured nodes get no edges (see the Fit View test).
 */
async function reloadGraph(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByTestId('run-graph')).toBeVisible();
  await expect(page.locator('[data-testid=run-graph] .react-flow__edge').first()).toBeAttached();
  await fitGraph(page);
}

/** Just React Flow's own "fit view" control, as a user presses it. */
async function pressFitView(page: Page): Promise<void> {
  await page.locator('[data-testid=run-graph] .react-flow__controls-fitview').click();
}

/** The heading of the node detail panel (not the embedded span detail's heading). */
function detailHeading(page: Page): Locator {
  return page.locator('[data-testid=node-detail] > header h2');
}

/** The `?node=` of the current URL. */
function selectedFromUrl(page: Page): string | null {
  return new URL(page.url()).searchParams.get('node');
}

async function resumeScripted(page: Page): Promise<void> {
  const resumed = page.waitForResponse((response) => /\/api\/runs\/[^/]+\/resume$/.test(response.url()) && response.request().method() === 'POST');
  await page.getByTestId('resume-scripted').click();
  const response = await resumed;
  expect(response.status(), `resume answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/graph-${name}.png`, fullPage: true });
}

async function expectGraphChrome(page: Page): Promise<void> {
  await expect(page.getByTestId('tab-graph')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('run-graph')).toBeVisible();
  await expect(page.getByTestId('graph-legend')).toBeVisible();
  await expect(page.locator('[data-testid=run-graph] .react-flow__controls')).toBeVisible();
  // The minimap is there only when the graph does not fit the pane at a readable zoom: on a
  // graph that fits, it would only cover nodes.
  await expect(page.getByTestId('run-graph')).toHaveAttribute('data-fits', /^(true|false)$/);
  const fits = await page.getByTestId('run-graph').getAttribute('data-fits');
  await expect(page.locator('[data-testid=run-graph] .react-flow__minimap')).toHaveCount(fits === 'true' ? 0 : 1);
}

// ---------------------------------------------------------------------------------------------
// Scenario runs
// ---------------------------------------------------------------------------------------------

test.describe('graph', () => {
  test('graph: plain-tool-round draws 1 generate, 2 model calls, 2 parallel tool calls and a final answer', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round', 'graph');
    await expectRunStatus(page, 'finished');
    await expectGraphChrome(page);
    await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 2 model · 2 tool · 0 interrupt(s)');
    await reloadGraph(page);

    await expect(graphNodes(page, { kind: 'generate' })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'model-call' })).toHaveCount(2);
    await expect(graphNodes(page, { kind: 'tool-call', tone: 'ok' })).toHaveCount(2);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await expect(graphNodes(page, { tone: 'error' })).toHaveCount(0);
    await expect(graphNodes(page, { kind: 'tool-call', text: 'getWeather#weather-1' })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'tool-call', text: 'convertTemperature#convert-1' })).toHaveCount(1);

    const first = await nodeIdOf(graphNodes(page, { kind: 'model-call', text: 'turn 1 · scripted/plain-tool-round' }));
    const second = await nodeIdOf(graphNodes(page, { kind: 'model-call', text: 'turn 2 · scripted/plain-tool-round' }));
    for (const tool of await graphNodes(page, { kind: 'tool-call' }).all()) {
      const toolId = await nodeIdOf(tool);
      await expect(flowEdge(page, `${first}->${toolId}`), `edge model 1 → ${toolId}`).toHaveCount(1);
      await expect(flowEdge(page, `${toolId}->${second}`), `edge ${toolId} → model 2`).toHaveCount(1);
    }
    const finalId = await nodeIdOf(graphNodes(page, { kind: 'final-answer' }));
    await expect(flowEdge(page, `${second}->${finalId}`)).toHaveCount(1);
    // No answer edges in a run without interrupts.
    expect((await renderedEdges(page)).filter((edge) => edge.kind === 'answer')).toEqual([]);
  });

  test('graph: restart-after-approval shows a pause, then the restart that answered it', async ({ page }) => {
    await runScenarioFromHome(page, 'restart-after-approval', 'graph');
    await expectRunStatus(page, 'interrupted');
    await expectGraphChrome(page);
    await fitGraph(page);

    const interrupt = graphNodes(page, { kind: 'tool-interrupt', text: 'transferMoney#transfer-1' });
    await expect(interrupt).toHaveCount(1);
    await expect(interrupt).toHaveAttribute('data-tone', 'interrupted');
    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — waiting for an answer');
    await expect(graphNodes(page, { tone: 'error' })).toHaveCount(0);
    await expect(graphNodes(page).getByTestId('graph-node-status').filter({ hasText: /^failed$/ })).toHaveCount(0);
    const interruptId = await nodeIdOf(interrupt);

    await resumeScripted(page);
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s) · 2 model · 2 tool · 1 interrupt(s) · answered: 0 respond, 1 restart, 0 pending');
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await shoot(page, 'restart-after-approval-live');
    await fitGraph(page);
    // Live: the interrupt node updates in place once the resume's spans arrive.
    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by restart');
    await expect(graphNodes(page, { kind: 'resume-restart' })).toHaveCount(1);
    await reloadGraph(page);

    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by restart');
    await expect(interrupt).toHaveAttribute('data-tone', 'interrupted');
    const restart = graphNodes(page, { kind: 'resume-restart' });
    await expect(restart).toHaveCount(1);
    await expect(restart).toContainText('transferMoney#transfer-1');
    const restartId = await nodeIdOf(restart);
    const answerEdge = flowEdge(page, `${interruptId}=>${restartId}`);
    await expect(answerEdge).toHaveCount(1);
    await expect(answerEdge).toContainText('answered by');
    const restarted = graphNodes(page, { kind: 'tool-call', text: 'transferMoney' });
    await expect(restarted).toHaveCount(1);
    await expect(restarted.getByTestId('graph-node-status')).toHaveText('ok — restarted by a resume');
    await expect(flowEdge(page, `${restartId}->${await nodeIdOf(restarted)}`)).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'generate' })).toHaveCount(2);
    await expect(graphNodes(page, { tone: 'error' })).toHaveCount(0);
    await shoot(page, 'restart-after-approval');

    await flowNode(page, interruptId).click();
    await expect.poll(() => selectedFromUrl(page)).toBe(interruptId);
    const detail = page.getByTestId('node-detail');
    await expect(detailHeading(page)).toHaveText('transferMoney#transfer-1');
    await expect(detail.getByTestId('node-status')).toHaveText('paused — answered by restart');
    await expect(detail.getByTestId('interrupt-metadata')).toContainText('approval-required');
    await expect(detail.getByTestId('interrupt-answers')).toContainText('restart');
    await expect(detail.getByTestId('interrupt-answers').locator('li')).toHaveCount(1);
    await expect(detail.getByTestId('interrupt-answers').locator('li')).toContainText('alice');
  });

  test('graph: respond-to-question links the askUser interrupt to a respond node and does not re-run the tool', async ({ page }) => {
    await runScenarioFromHome(page, 'respond-to-question', 'graph');
    await expectRunStatus(page, 'interrupted');
    await fitGraph(page);
    const interrupt = graphNodes(page, { kind: 'tool-interrupt', text: 'askUser#seat-1' });
    await expect(interrupt).toHaveCount(1);
    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — waiting for an answer');
    const interruptId = await nodeIdOf(interrupt);

    await resumeScripted(page);
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
    await fitGraph(page);
    await expect(graphNodes(page, { kind: 'resume-respond' })).toHaveCount(1);
    await reloadGraph(page);

    const respond = graphNodes(page, { kind: 'resume-respond' });
    await expect(respond).toHaveCount(1);
    await expect(respond).toContainText('askUser#seat-1');
    await expect(respond).toHaveAttribute('data-tone', 'answered');
    await expect(respond.getByTestId('graph-node-status')).toContainText('answered by respond');
    const respondId = await nodeIdOf(respond);
    await expect(flowEdge(page, `${interruptId}=>${respondId}`)).toHaveCount(1);
    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by respond');
    // respond never re-runs the tool: no askUser tool node, and no restart node.
    await expect(graphNodes(page, { kind: 'tool-call', text: 'askUser' })).toHaveCount(0);
    await expect(graphNodes(page, { kind: 'resume-restart' })).toHaveCount(0);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);

    await flowNode(page, respondId).click();
    await expect(page.getByTestId('node-detail')).toContainText('Window');
  });

  test('graph: parallel-pending-output reuses the parked lookupOrder output and restarts transferMoney', async ({ page }) => {
    await runScenarioFromHome(page, 'parallel-pending-output', 'graph');
    await expectRunStatus(page, 'interrupted');
    await fitGraph(page);
    const parked = graphNodes(page, { kind: 'tool-call', text: 'lookupOrder#order-1' });
    await expect(parked).toHaveCount(1);
    await expect(parked.getByTestId('graph-node-status')).toHaveText('ok — parked as pendingOutput');
    const transfer = graphNodes(page, { kind: 'tool-interrupt', text: 'transferMoney#refund-1' });
    await expect(transfer).toHaveCount(1);
    const parkedId = await nodeIdOf(parked);
    const transferId = await nodeIdOf(transfer);

    await resumeScripted(page);
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await shoot(page, 'parallel-pending-output-live');
    await fitGraph(page);
    await expect(graphNodes(page, { kind: 'resume-pending' })).toHaveCount(1);
    await reloadGraph(page);

    const pending = graphNodes(page, { kind: 'resume-pending' });
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText('lookupOrder#order-1');
    await expect(pending.getByTestId('graph-node-status')).toHaveText('pendingOutput reused — not re-run');
    const pendingId = await nodeIdOf(pending);
    await expect(flowEdge(page, `${parkedId}=>${pendingId}`)).toHaveCount(1);
    await expect(parked.getByTestId('graph-node-status')).toHaveText('ok — parked as pendingOutput');

    const restart = graphNodes(page, { kind: 'resume-restart' });
    await expect(restart).toHaveCount(1);
    await expect(restart).toContainText('transferMoney#refund-1');
    await expect(flowEdge(page, `${transferId}=>${await nodeIdOf(restart)}`)).toHaveCount(1);
    // lookupOrder ran once (parked), transferMoney ran again (restarted).
    await expect(graphNodes(page, { kind: 'tool-call', text: 'lookupOrder' })).toHaveCount(1);
    const rerun = graphNodes(page, { kind: 'tool-call', text: 'transferMoney' });
    await expect(rerun).toHaveCount(1);
    await expect(rerun.getByTestId('graph-node-status')).toHaveText('ok — restarted by a resume');
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await shoot(page, 'parallel-pending-output');
  });

  test('graph: tool-throws ends in a failure node with the error message', async ({ page }) => {
    await runScenarioFromHome(page, 'tool-throws', 'graph');
    await expectRunStatus(page, 'failed');
    await reloadGraph(page);
    const failure = graphNodes(page, { kind: 'failure' });
    await expect(failure).toHaveCount(1);
    await expect(failure).toHaveAttribute('data-tone', 'error');
    const tool = graphNodes(page, { text: 'checkInventory' });
    await expect(tool).toHaveCount(1);
    await expect(tool).toHaveAttribute('data-tone', 'error');
    await expect(tool.getByTestId('graph-node-status')).toHaveText('failed');
    await expect(flowEdge(page, `${await nodeIdOf(tool)}->${await nodeIdOf(failure)}`)).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(0);
    await shoot(page, 'tool-throws');

    await flowNode(page, await nodeIdOf(failure)).click();
    const detail = page.getByTestId('node-detail');
    await expect(detail.getByTestId('node-status')).toHaveText('failed');
    await expect(detail).toContainText('Inventory service returned 503');
  });

  test('graph: unknown-tool ends in a failure node and a tool node that never ran', async ({ page }) => {
    await runScenarioFromHome(page, 'unknown-tool', 'graph');
    await expectRunStatus(page, 'failed');
    await reloadGraph(page);
    const failure = graphNodes(page, { kind: 'failure' });
    await expect(failure).toHaveCount(1);
    await expect(failure).toHaveAttribute('data-tone', 'error');
    const never = graphNodes(page, { kind: 'tool-call', text: 'cancelSubscription#cancel-1' });
    await expect(never).toHaveCount(1);
    await expect(never.getByTestId('graph-node-status')).toHaveText('never ran');
    await expect(flowEdge(page, `${await nodeIdOf(never)}->${await nodeIdOf(failure)}`)).toHaveCount(1);

    await flowNode(page, await nodeIdOf(failure)).click();
    const detail = page.getByTestId('node-detail');
    await expect(detail.getByTestId('node-status')).toHaveText('failed');
    await expect(detail).toContainText('cancelSubscription');
    await expect(failure).toContainText('NOT_FOUND');
  });

  test('graph: multi-round-research chains 5 model calls and 4 tool calls', async ({ page }) => {
    await runScenarioFromHome(page, 'multi-round-research', 'graph');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 5 model · 4 tool');
    await reloadGraph(page);
    await expect(graphNodes(page, { kind: 'model-call' })).toHaveCount(5);
    await expect(graphNodes(page, { kind: 'tool-call' })).toHaveCount(4);
    await expect(graphNodes(page, { kind: 'tool-call', tone: 'ok' })).toHaveCount(4);
    await expect(graphNodes(page, { kind: 'collapsed-rounds' })).toHaveCount(0);

    await expect(graphNodes(page)).toHaveCount(11);
    // React Flow draws edges once their nodes are measured: wait for all 10 flow edges.
    await expect(page.locator('[data-testid=run-graph] .react-flow__edge')).toHaveCount(10);
    // Walk the flow edges from the generate: generate → m1 → t1 → m2 → … → m5 → final answer.
    const generateId = await nodeIdOf(graphNodes(page, { kind: 'generate' }));
    const kinds = new Map<string, string>();
    for (const node of await graphNodes(page).all()) kinds.set(await nodeIdOf(node), (await node.getAttribute('data-kind')) ?? '');
    const edges = (await renderedEdges(page)).filter((edge) => edge.kind === 'flow');
    const chain: string[] = [];
    for (let current: string | undefined = generateId, guard = 0; current && guard < 20; guard++) {
      chain.push(kinds.get(current) ?? `unknown:${current}`);
      const next = edges.filter((edge) => edge.source === current);
      expect(next.length, `one flow edge out of ${current}`).toBeLessThanOrEqual(1);
      current = next[0]?.target;
    }
    expect(chain).toEqual([
      'generate',
      'model-call',
      'tool-call',
      'model-call',
      'tool-call',
      'model-call',
      'tool-call',
      'model-call',
      'tool-call',
      'model-call',
      'final-answer',
    ]);
    for (const [turn, tool] of [
      [1, 'searchDocs#search-1'],
      [2, 'readPage#read-1'],
      [3, 'searchDocs#search-2'],
      [4, 'readPage#read-2'],
    ] as const) {
      const model = await nodeIdOf(graphNodes(page, { kind: 'model-call', text: `turn ${turn} · scripted/multi-round-research` }));
      const toolId = await nodeIdOf(graphNodes(page, { kind: 'tool-call', text: tool }));
      await expect(flowEdge(page, `${model}->${toolId}`)).toHaveCount(1);
    }
  });

  // -------------------------------------------------------------------------------------------
  // Saved files, deep links, keyboard
  // -------------------------------------------------------------------------------------------

  test('graph: a saved file opens as one session with both generates and the answer edge between the traces', async ({ page }) => {
    await openHomeWithReadyRunner(page);
    const row = page.locator('[data-testid=saved-row][data-file="restart-after-approval.json"]');
    await expect(row).toHaveCount(1);
    await row.getByRole('link').first().click();
    await page.waitForURL(/\/saved\/restart-after-approval\.json/);
    await expectGraphChrome(page);
    await expect(page.getByTestId('graph-summary')).toContainText('2 generate(s)');
    await fitGraph(page);

    const generates = graphNodes(page, { kind: 'generate' });
    await expect(generates).toHaveCount(2);
    const interrupt = graphNodes(page, { kind: 'tool-interrupt', text: 'transferMoney#transfer-1' });
    const restart = graphNodes(page, { kind: 'resume-restart' });
    await expect(interrupt).toHaveCount(1);
    await expect(restart).toHaveCount(1);
    const interruptId = await nodeIdOf(interrupt);
    const restartId = await nodeIdOf(restart);
    // The two generates come from different traces; the answer edge crosses them.
    const traceOf = (id: string) => id.split(':')[0];
    const generateIds = await Promise.all((await generates.all()).map(nodeIdOf));
    expect(new Set(generateIds.map(traceOf)).size).toBe(2);
    expect(traceOf(interruptId)).not.toBe(traceOf(restartId));
    const answers = (await renderedEdges(page)).filter((edge) => edge.kind === 'answer');
    expect(answers.map((edge) => edge.id)).toEqual([`${interruptId}=>${restartId}`]);
    await expect(flowEdge(page, `${interruptId}=>${restartId}`)).toContainText('answered by');
    await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by restart');
  });

  test('graph: a deep link with ?node= opens the trace with that node selected, also after a reload', async ({ page }) => {
    await runScenarioFromHome(page, 'plain-tool-round', 'graph');
    await expectRunStatus(page, 'finished');
    await fitGraph(page);
    const weather = graphNodes(page, { kind: 'tool-call', text: 'getWeather#weather-1' });
    await expect(weather).toHaveCount(1);
    const weatherId = await nodeIdOf(weather);
    await flowNode(page, weatherId).click();
    await expect.poll(() => selectedFromUrl(page)).toBe(weatherId);
    const nodeId = selectedFromUrl(page)!;
    await expect(detailHeading(page)).toHaveText('getWeather#weather-1');

    const traceId = nodeId.split(':')[0];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await page.goto(`/traces/${traceId}?node=${encodeURIComponent(nodeId)}`);
    const expectSelected = async () => {
      await expect(page.getByTestId('tab-graph')).toHaveAttribute('aria-selected', 'true');
      await expect(detailHeading(page)).toHaveText('getWeather#weather-1');
      await expect(page.getByTestId('node-detail').getByTestId('node-status')).toHaveText('ok');
      await expect(flowNode(page, nodeId)).toHaveClass(/selected/);
      await expect(flowNode(page, nodeId)).toBeInViewport();
    };
    await expectSelected();
    await page.reload();
    await expectSelected();
    expect(selectedFromUrl(page)).toBe(nodeId);
  });

  test('graph: arrow keys move the selection between nodes, ArrowLeft goes back', async ({ page }) => {
    await runScenarioFromHome(page, 'multi-round-research', 'graph');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 5 model · 4 tool');
    await fitGraph(page);
    // The live graph may still miss the model outputs for a moment (tool labels without #ref).
    await expect(graphNodes(page, { kind: 'tool-call', text: 'searchDocs#search-1' })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    const detailLabel = detailHeading(page);
    await expect(detailLabel).toHaveText('generate 1');

    await page.getByTestId('run-graph').focus();
    await expect(page.getByTestId('run-graph')).toBeFocused();
    const visited: { id: string; label: string }[] = [];
    for (let step = 0; step < 3; step++) {
      const before = selectedFromUrl(page);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => selectedFromUrl(page)).not.toBe(before);
      const id = selectedFromUrl(page)!;
      const label = (await flowNode(page, id).locator('.graph-node-label').textContent()) ?? '';
      await expect(detailLabel).toHaveText(label);
      await expect(flowNode(page, id)).toHaveClass(/selected/);
      visited.push({ id, label });
    }
    expect(new Set(visited.map((node) => node.id)).size).toBe(3);
    // Reading order, left to right: model turn 1, its tool, model turn 2.
    expect(visited.map((node) => node.label)).toEqual(['turn 1 · scripted/multi-round-research', 'searchDocs#search-1', 'turn 2 · scripted/multi-round-research']);

    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => selectedFromUrl(page)).toBe(visited[1].id);
    await expect(detailLabel).toHaveText(visited[1].label);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => selectedFromUrl(page)).toBe(visited[0].id);
    await expect(detailLabel).toHaveText(visited[0].label);
    await expect(page.getByTestId('run-graph')).toBeFocused();
  });

  test('graph: on a live run page, Fit View brings every node of a small graph on screen', async ({ page }) => {
    // unknown-tool: generate → model → cancelSubscription (never ran) → failure: 4 nodes.
    await runScenarioFromHome(page, 'unknown-tool', 'graph');
    await expectRunStatus(page, 'failed');
    await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 1 model · 0 tool · 0 interrupt(s) · 1 failed');
    await expect(graphNodes(page, { kind: 'failure' })).toHaveCount(1);
    const kinds = ['generate', 'model-call', 'tool-call', 'failure'];
    for (const kind of kinds) await expect.soft(graphNodes(page, { kind }), `${kind} node on screen when the run ends`).toBeInViewport({ timeout: 3_000 });
    await pressFitView(page);
    for (const kind of kinds) await expect(graphNodes(page, { kind }), `${kind} node on screen after pressing Fit View`).toBeInViewport({ timeout: 5_000 });
  });

  // -------------------------------------------------------------------------------------------
  // A long loop posted as OTLP JSON
  // -------------------------------------------------------------------------------------------

  test('graph: a 60-round loop posted over OTLP collapses middle rounds and expands them on Enter / click', async ({ page }) => {
    const rounds = 60;
    const { traceId, body } = longLoopTrace(rounds);
    const response = await rawRequest({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json' }, body });
    expect(response.status, response.text).toBe(200);

    await page.goto(`/traces/${traceId}`);
    await expectGraphChrome(page);
    await expect(page.getByTestId('graph-summary')).toContainText(`1 generate(s) · ${rounds + 1} model · ${rounds} tool · 0 interrupt(s)`);
    await fitGraph(page);

    const collapsed = graphNodes(page, { kind: 'collapsed-rounds' });
    await expect(collapsed.first()).toBeVisible();
    // 61 turns, 3 kept at each end, the 55 in between in chunks of 25: turns 4–28, 29–53, 54–58.
    await expect(collapsed).toHaveCount(3);
    await expect(graphNodes(page, { kind: 'collapsed-rounds', text: 'turns 4–28' })).toContainText('25 rounds, 25 tool calls');
    const rendered = page.locator('[data-testid=run-graph] .react-flow__node');
    // The minimap draws every node of the view, on screen or not.
    const everyNode = page.locator('[data-testid=run-graph] .react-flow__minimap-node');
    const before = await rendered.count();
    const totalBefore = await everyNode.count();
    expect(before).toBeGreaterThan(5);
    expect(before).toBeLessThan(80);
    expect(totalBefore).toBe(before);
    // The kept rounds at each end are visible; the final answer too.
    await expect(graphNodes(page, { kind: 'model-call', text: 'turn 1 · scripted/long-loop' })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'model-call', text: `turn ${rounds + 1} · scripted/long-loop` })).toHaveCount(1);
    await expect(graphNodes(page, { kind: 'final-answer' })).toHaveCount(1);
    await shoot(page, 'large-run');

    // Keyboard: walk right until a collapsed group is selected, then Enter expands it.
    const collapsedIds = await Promise.all((await collapsed.all()).map(nodeIdOf));
    const walkTo = async (targets: string[]): Promise<string | undefined> => {
      await page.getByTestId('run-graph').focus();
      for (let step = 0; step < 150; step++) {
        await page.keyboard.press('ArrowRight');
        const id = selectedFromUrl(page);
        if (id && targets.includes(id)) return id;
      }
      return undefined;
    };
    const reached = await walkTo(collapsedIds);
    expect(reached, 'ArrowRight reaches a collapsed-rounds node').toBeTruthy();
    await expect(flowNode(page, reached!)).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(flowNode(page, reached!)).toHaveCount(0);
    await expect.poll(() => everyNode.count()).toBeGreaterThan(totalBefore + 40);
    const afterEnter = await everyNode.count();
    await fitGraph(page);
    await expect.poll(() => rendered.count()).toBeGreaterThan(before);

    // Click: another collapsed group expands too (walk to it first, so it is on screen).
    const remaining = collapsedIds.filter((id) => id !== reached);
    await page.keyboard.press('Home');
    const other = await walkTo(remaining);
    expect(other, 'ArrowRight reaches another collapsed-rounds node').toBeTruthy();
    await flowNode(page, other!).click();
    await expect(flowNode(page, other!)).toHaveCount(0);
    await expect.poll(() => everyNode.count()).toBeGreaterThan(afterEnter);
  });
});

// ---------------------------------------------------------------------------------------------
// OTLP JSON of a long genkit loop, built by hand
// ---------------------------------------------------------------------------------------------

type OtlpAttribute = { key: string; value: { stringValue?: string; boolValue?: boolean } };

function attrs(values: Record<string, string | boolean>): OtlpAttribute[] {
  return Object.entries(values).map(([key, value]) => ({ key, value: typeof value === 'boolean' ? { boolValue: value } : { stringValue: value } }));
}

/**
 * One root generate with round 1, then a nested generate per further round (each the child of
 * the previous generate) holding a model span and a tool span, as genkit records a tool loop.
 * `rounds` tool rounds, then one more nested generate whose model answers with text.
 */
function longLoopTrace(rounds: number): { traceId: string; body: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = () => randomBytes(8).toString('hex');
  const model = 'scripted/long-loop';
  const start = BigInt(Date.now() - 60_000) * 1_000_000n;
  const ms = 1_000_000n;
  const finalText = `Done after ${rounds} steps.`;
  const finalOutput = JSON.stringify({ message: { role: 'model', content: [{ text: finalText }] }, finishReason: 'stop' });
  const spans: object[] = [];
  const span = (fields: { id: string; parent?: string; name: string; at: bigint; end: bigint; attributes: OtlpAttribute[] }) =>
    spans.push({
      traceId,
      spanId: fields.id,
      ...(fields.parent ? { parentSpanId: fields.parent } : {}),
      name: fields.name,
      kind: 1,
      startTimeUnixNano: String(fields.at),
      endTimeUnixNano: String(fields.end),
      attributes: fields.attributes,
      status: { code: 0 },
    });

  const totalEnd = start + BigInt(rounds + 2) * 10n * ms;
  let generateId = spanId();
  span({
    id: generateId,
    name: 'generate',
    at: start,
    end: totalEnd,
    attributes: attrs({
      'genkit:type': 'util',
      'genkit:name': 'generate',
      'genkit:isRoot': true,
      'genkit:path': '/{generate,t:util}',
      'genkit:input': JSON.stringify({ model, messages: [{ role: 'user', content: [{ text: 'Count to sixty.' }] }] }),
      'genkit:output': finalOutput,
      'genkit:state': 'success',
    }),
  });
  for (let round = 1; round <= rounds + 1; round++) {
    const at = start + BigInt(round) * 10n * ms;
    if (round > 1) {
      const nested = spanId();
      span({
        id: nested,
        parent: generateId,
        name: 'generate',
        at,
        end: totalEnd - BigInt(round) * ms,
        attributes: attrs({ 'genkit:type': 'util', 'genkit:name': 'generate', 'genkit:output': finalOutput, 'genkit:state': 'success' }),
      });
      generateId = nested;
    }
    const last = round === rounds + 1;
    const modelOutput = last
      ? finalOutput
      : JSON.stringify({ message: { role: 'model', content: [{ toolRequest: { name: 'step', ref: `s${round}`, input: { n: round } } }] }, finishReason: 'stop' });
    span({
      id: spanId(),
      parent: generateId,
      name: model,
      at: at + ms,
      end: at + 3n * ms,
      attributes: attrs({ 'genkit:type': 'action', 'genkit:metadata:subtype': 'model', 'genkit:name': model, 'genkit:output': modelOutput, 'genkit:state': 'success' }),
    });
    if (!last) {
      span({
        id: spanId(),
        parent: generateId,
        name: 'step',
        at: at + 4n * ms,
        end: at + 6n * ms,
        attributes: attrs({
          'genkit:type': 'action',
          'genkit:metadata:subtype': 'tool',
          'genkit:name': 'step',
          'genkit:input': JSON.stringify({ n: round }),
          'genkit:output': JSON.stringify({ done: round }),
          'genkit:state': 'success',
        }),
      });
    }
  }
  const body = {
    resourceSpans: [
      {
        resource: { attributes: attrs({ 'service.name': 'e2e-long-loop' }) },
        scopeSpans: [{ scope: { name: 'genkit-tracer', version: 'v1' }, spans }],
      },
    ],
  };
  return { traceId, body: JSON.stringify(body) };
}
