import { expect, test } from '@playwright/test';
import { AUTH, expectRunStatus, spanRowsWhere } from './helpers';
import {
  clickAndWaitDecision,
  expectDecisionAccepted,
  ghosts,
  graphNodes,
  isPost,
  modelPause,
  openSection,
  pauseCards,
  pauseTitles,
  pressStepKey,
  setBreakpointCheckbox,
  startFromHome,
  stopStartedRunsAfterEach,
  stopWithKeyWhileToolsPaused,
  toolPause,
} from './stepping-helpers';

/**
 * Step-by-step runs: Step through, breakpoints, Continue / Step / Stop (buttons and keys), the
 * decisions at a pause (replace the model's answer; edit, answer, interrupt or fail a tool),
 * ghost nodes in the graph, and two paused runs side by side.
 */

test.use({ viewport: { width: 1440, height: 900 } });

const LISBON = 'It is 24°C (75°F) and sunny in Lisbon.';

stopStartedRunsAfterEach();

// ---------------------------------------------------------------------------------------------

test('step: Step through pauses before each model call and each tool; pauses are released one by one in any order', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  const seen: string[] = [];

  // Model call 1: one pause, one ghost node.
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page).first().locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before model call 1');
  await expect(page.getByTestId('step-state')).toContainText('paused at 1 step(s)');
  await expectRunStatus(page, 'running');
  seen.push(...(await pauseTitles(page)));

  // The shortcuts are shown in the buttons.
  await expect(page.getByTestId('step-button').locator('kbd')).toHaveText('S');
  await expect(page.getByTestId('continue-button').locator('kbd')).toHaveText('C');
  await expect(page.getByTestId('stop-button').locator('kbd')).toHaveText('X');

  // S: the model asks for both tools; both pause together.
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);
  await expect(toolPause(page, 'getWeather')).toHaveCount(1);
  await expect(toolPause(page, 'convertTemperature')).toHaveCount(1);
  await expect(modelPause(page)).toHaveCount(0);
  await expect(ghosts(page)).toHaveCount(2);
  await expect(ghosts(page).filter({ hasText: 'paused before getWeather#weather-1' })).toHaveCount(1);
  await expect(ghosts(page).filter({ hasText: 'paused before convertTemperature#convert-1' })).toHaveCount(1);
  await expect(page.getByTestId('step-state')).toContainText('paused at 2 step(s)');
  const toolTitles = await pauseTitles(page);
  expect(toolTitles).toEqual(['Paused before tool getWeather#weather-1', 'Paused before tool convertTemperature#convert-1']);
  seen.push(...toolTitles);

  // Released in reverse order: convertTemperature first; getWeather stays paused.
  await expectDecisionAccepted(page, runId, toolPause(page, 'convertTemperature').getByTestId('pause-continue'));
  await expect(toolPause(page, 'convertTemperature')).toHaveCount(0);
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(toolPause(page, 'getWeather')).toHaveCount(1);
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before getWeather#weather-1');

  await expectDecisionAccepted(page, runId, toolPause(page, 'getWeather').getByTestId('pause-continue'));

  // Model call 2.
  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(pauseCards(page).first().locator('h3')).toHaveText('Paused before model call 2');
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before model call 2');
  seen.push(...(await pauseTitles(page)));

  await pressStepKey(page, runId, 'S');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(ghosts(page)).toHaveCount(0);
  await expect(page.getByTestId('step-state')).toContainText('the run is finished');

  expect(seen).toEqual([
    'Paused before model call 1',
    'Paused before tool getWeather#weather-1',
    'Paused before tool convertTemperature#convert-1',
    'Paused before model call 2',
  ]);
});

test('step: the Continue button runs a step-through run to the end when no breakpoints are set', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2).catch(async (error) => {
    // Seen once (not reproduced since): the page kept one pause card. Record what the server had.
    const response = await page.request.get(`/api/runs/${runId}`, { headers: AUTH });
    test.info().annotations.push({ type: 'pauses', description: `server ${JSON.stringify((await response.json()).run.pauses)} · page ${JSON.stringify(await pauseTitles(page))}` });
    throw error;
  });

  const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/continue$`)));
  await page.getByTestId('continue-button').click();
  expect((await posted).status()).toBeLessThan(300);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(page.getByTestId('run-failure')).toHaveCount(0);
});

test('step: key C continues a step-through run from model call 1 to the end', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page).first().locator('h3')).toHaveText('Paused before model call 1');
  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
  await expect(pauseCards(page)).toHaveCount(0);
});

test('step: key X while paused stops the run: stopped, "stopped by the user"', async ({ page }) => {
  await stopWithKeyWhileToolsPaused(page, 'plain-tool-round');
  await expect(page.getByTestId('run-text')).toHaveCount(0);
  await expect(page.getByTestId('step-button')).toBeDisabled();
  await expect(page.getByTestId('continue-button')).toBeDisabled();
});

test('step: shortcut keys typed into a pause text field do not step the run', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  const card = modelPause(page);
  await expect(card).toHaveCount(1);
  await openSection(card, "Replace the model's answer");
  const parts = card.getByTestId('pause-parts');
  await parts.click();
  let posted = false;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/(step|continue|stop)$/.test(new URL(request.url()).pathname)) posted = true;
  });
  await parts.pressSequentially('scx');
  await expect(parts).toHaveValue(/scx$/);
  // A round trip to the server after the key presses: any step request would have been sent by now.
  const response = await page.request.get(`/api/runs/${runId}`, { headers: AUTH });
  const { run } = (await response.json()) as { run: { status: string; pauses: { kind: string }[] } };
  expect(posted).toBe(false);
  expect(run.status).toBe('running');
  expect(run.pauses.map((pause) => pause.kind)).toEqual(['model']);
  await expect(pauseCards(page)).toHaveCount(1);
});

test('breakpoint: a breakpoint on getWeather only; a model-call breakpoint added while paused, then removed', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'] });

  // The only pause: getWeather. convertTemperature ran without pausing.
  await expect(toolPause(page, 'getWeather')).toHaveCount(1);
  await expect(toolPause(page, 'getWeather').locator('h3')).toHaveText('Paused before tool getWeather#weather-1');
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'convertTemperature#convert-1' }).getByTestId('graph-node-status')).toHaveText('ok');
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before getWeather#weather-1');
  await expect(page.getByTestId('bp-edit-tool-getWeather')).toBeChecked();
  await expect(page.getByTestId('bp-edit-tool-convertTemperature')).not.toBeChecked();
  await expect(page.getByTestId('bp-edit-model-all')).not.toBeChecked();

  // Add "every model call" while paused, then C: the run stops before model call 2.
  await setBreakpointCheckbox(page, runId, 'bp-edit-model-all', true);
  await pressStepKey(page, runId, 'C');
  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
  await expect(ghosts(page).first()).toContainText('paused before model call 2');
  await expectRunStatus(page, 'running');

  // Remove it, Continue: the run finishes.
  await setBreakpointCheckbox(page, runId, 'bp-edit-model-all', false);
  await page.getByTestId('continue-button').click();
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
});

test('step (model): a hand-written answer at model call 2 ends the run and is drawn as hand-written', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', everyModelCall: true });
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 1');
  await expectDecisionAccepted(page, runId, modelPause(page).getByTestId('pause-continue'));

  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
  const card = modelPause(page);
  await openSection(card, "Replace the model's answer");
  await card.getByTestId('pause-parts').fill('[{"text":"Answer written by hand."}]');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-replace'));

  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Answer written by hand.');
  await expect(page.getByTestId('run-text')).not.toContainText(LISBON);
  const handWritten = graphNodes(page, 'model-call').filter({ has: page.locator('[data-testid=graph-node-status]', { hasText: /^hand-written/ }) });
  await expect(handWritten).toHaveCount(1);
  await expect(handWritten.getByTestId('graph-node-status')).toHaveText(/^hand-written/);
  // The first model call is the scripted model's own.
  await expect(graphNodes(page, 'model-call')).toHaveCount(2);
});

test('step (model): a hand-written request for an unknown tool is refused, "Send anyway" fails the run naming it', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  const card = modelPause(page);
  await expect(card.locator('h3')).toHaveText('Paused before model call 1');
  await openSection(card, "Replace the model's answer");
  await card.getByTestId('pause-parts').fill('[{"toolRequest":{"name":"nope","ref":"nope-1","input":{}}}]');

  const refused = await clickAndWaitDecision(page, runId, card.getByTestId('pause-replace'));
  expect(refused.status(), 'the unknown tool is refused').toBeGreaterThanOrEqual(400);
  await expect(card.getByTestId('pause-error')).toContainText('nope');
  await expect(card.getByTestId('pause-force')).toHaveText('Send anyway');
  await expectRunStatus(page, 'running');
  await expect(pauseCards(page)).toHaveCount(1);

  await expectDecisionAccepted(page, runId, card.getByTestId('pause-force'));
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText('nope');
  await expect(page.getByTestId('run-failure')).toContainText('NOT_FOUND');
});

test('breakpoint (tool): an input that breaks the schema is refused; an edited input runs the tool with it', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'] });
  const card = toolPause(page, 'getWeather');
  await expect(card).toHaveCount(1);
  await openSection(card, 'Edit the input');
  const input = card.getByTestId('pause-input');
  await expect(input).toHaveValue(/Lisbon/);

  await input.fill('{"city": 42}');
  const refused = await clickAndWaitDecision(page, runId, card.getByTestId('pause-edit'));
  expect(refused.status(), 'the broken input is refused').toBeGreaterThanOrEqual(400);
  await expect(card.getByTestId('pause-error')).toContainText('city');
  await expect(card.getByTestId('pause-force')).toBeVisible();
  await expectRunStatus(page, 'running');
  await expect(pauseCards(page)).toHaveCount(1);

  await input.fill('{"city":"Porto"}');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-edit'));
  await expectRunStatus(page, 'finished');

  await page.getByTestId('tab-spans').click();
  const row = spanRowsWhere(page, { role: 'tool', label: 'getWeather' });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(page.getByTestId('detail-input')).toContainText('Porto');
  await expect(page.getByTestId('detail-input')).not.toContainText('Lisbon');
  await expect(page.getByTestId('detail-output')).toContainText('Porto');
});

test('genkit JS tools: the step panel starts its editors from the tool schemas — a hand-written request, a tool answer', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'], everyModelCall: true });

  // Model call 1: a request added for getWeather starts with an input made from its input schema.
  const model = modelPause(page);
  await expect(model.locator('h3')).toHaveText('Paused before model call 1');
  await openSection(model, "Replace the model's answer");
  await model.getByTestId('pause-tool-picker').selectOption('getWeather');
  await model.getByTestId('pause-add-request').click();
  await expect(model.getByTestId('pause-parts')).toHaveValue(/getWeather/);
  const parts = JSON.parse(await model.getByTestId('pause-parts').inputValue()) as unknown[];
  expect(parts.at(-1)).toEqual({ toolRequest: { name: 'getWeather', ref: 'hand-1', input: { city: '' } } });
  await expectDecisionAccepted(page, runId, model.getByTestId('pause-continue'));

  // getWeather's pause: its input is the one the model sent; the answer starts from its output schema.
  const tool = toolPause(page, 'getWeather');
  await expect(tool).toHaveCount(1);
  await openSection(tool, 'Edit the input');
  expect(JSON.parse(await tool.getByTestId('pause-input').inputValue())).toEqual({ city: 'Lisbon' });
  await openSection(tool, 'Answer without running');
  expect(JSON.parse(await tool.getByTestId('pause-output').inputValue())).toEqual({ city: '', temperatureC: 0, conditions: '' });
  // The example fits the schema genkit checks the answer against: sent as it is, it is accepted.
  await expectDecisionAccepted(page, runId, tool.getByTestId('pause-answer'));
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-1' }).getByTestId('graph-node-status')).toHaveText('answered by hand — the tool did not run');
});

test('breakpoint (tool): a throwing tool answered without running lets the run finish', async ({ page }) => {
  const runId = await startFromHome(page, 'tool-throws', { kind: 'breakpoints', tools: ['checkInventory'] });
  const card = toolPause(page, 'checkInventory');
  await expect(card).toHaveCount(1);
  await expect(card.locator('h3')).toHaveText('Paused before tool checkInventory#stock-1');
  await openSection(card, 'Answer without running');
  await card.getByTestId('pause-output').fill('{"sku":"SKU-1234","inStock":7}');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-answer'));

  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-failure')).toHaveCount(0);
  const tool = graphNodes(page, 'tool-call').filter({ hasText: 'checkInventory#stock-1' });
  await expect(tool).toHaveCount(1);
  await expect(tool.getByTestId('graph-node-status')).toHaveText('answered by hand — the tool did not run');
});

test('breakpoint (tool): interrupt here makes a real interrupt of getWeather', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'] });
  const card = toolPause(page, 'getWeather');
  await expect(card).toHaveCount(1);
  await openSection(card, 'Interrupt here');
  await card.getByTestId('pause-metadata').fill('{"reason":"check"}');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-interrupt'));

  await expectRunStatus(page, 'interrupted');
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  const interrupt = graphNodes(page, 'tool-interrupt').filter({ hasText: 'getWeather#weather-1' });
  await expect(interrupt).toHaveCount(1);
  await expect(interrupt).toHaveAttribute('data-tone', 'interrupted');
  await expect(interrupt).toHaveAttribute('title', /check/);
});

test('breakpoint (tool): fail here fails the run with the given message', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['convertTemperature'] });
  const card = toolPause(page, 'convertTemperature');
  await expect(card).toHaveCount(1);
  await expect(pauseCards(page)).toHaveCount(1);
  await openSection(card, 'Fail here');
  const message = 'Conversion refused by the e2e stepping test';
  await card.getByTestId('pause-fail-message').fill(message);
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-fail'));

  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText(message);
  await expect(page.getByTestId('run-text')).toHaveCount(0);
});

test('step: two runs in two tabs step independently', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  const firstId = await startFromHome(first, 'plain-tool-round', { kind: 'step' });
  const secondId = await startFromHome(second, 'plain-tool-round', { kind: 'step' });
  expect(firstId).not.toBe(secondId);
  await expect(modelPause(first).locator('h3')).toHaveText('Paused before model call 1');
  await expect(modelPause(second).locator('h3')).toHaveText('Paused before model call 1');

  const serverPauses = async (runId: string) => {
    const response = await first.request.get(`/api/runs/${runId}`, { headers: AUTH });
    const { run } = (await response.json()) as { run: { status: string; pauses: { kind: string; modelTurn?: number; tool?: { name: string } }[] } };
    return { status: run.status, pauses: run.pauses.map((pause) => (pause.kind === 'model' ? `model ${pause.modelTurn}` : `tool ${pause.tool?.name}`)) };
  };

  // Step the first run: the second stays at model call 1.
  await first.bringToFront();
  await pressStepKey(first, firstId, 'S');
  await expect(pauseCards(first)).toHaveCount(2);
  expect(await serverPauses(secondId)).toEqual({ status: 'running', pauses: ['model 1'] });
  await expect(pauseCards(second)).toHaveCount(1);
  await expect(modelPause(second).locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(second)).toHaveCount(1);

  // Step the second run: the first keeps its two tool pauses.
  await second.bringToFront();
  await pressStepKey(second, secondId, 'S');
  await expect(pauseCards(second)).toHaveCount(2);
  expect((await serverPauses(firstId)).pauses.sort()).toEqual(['tool convertTemperature', 'tool getWeather']);
  await expect(pauseCards(first)).toHaveCount(2);
  await expect(toolPause(first, 'getWeather')).toHaveCount(1);
  await expect(toolPause(first, 'convertTemperature')).toHaveCount(1);
  await expect(ghosts(first)).toHaveCount(2);

  // Continue the second to the end: the first is still paused.
  await pressStepKey(second, secondId, 'C');
  await expectRunStatus(second, 'finished');
  await expect(second.getByTestId('run-text')).toContainText(LISBON);
  expect((await serverPauses(firstId)).status).toBe('running');
  await expect(pauseCards(first)).toHaveCount(2);
  await expectRunStatus(first, 'running');

  await first.bringToFront();
  await pressStepKey(first, firstId, 'C');
  await expectRunStatus(first, 'finished');
  await expect(first.getByTestId('run-text')).toContainText(LISBON);
});

test('step: S at two parallel tool pauses releases only the oldest one (getWeather)', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);

  await pressStepKey(page, runId, 'S');
  await expect(toolPause(page, 'getWeather')).toHaveCount(0);
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(toolPause(page, 'convertTemperature')).toHaveCount(1);
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before convertTemperature#convert-1');
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-1' }).getByTestId('graph-node-status')).toHaveText('ok');

  await page.getByTestId('step-button').click();
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
  await page.getByTestId('step-button').click();
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
});

test('step: a tool breakpoint ticked in step mode is where Continue stops next', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await setBreakpointCheckbox(page, runId, 'bp-edit-tool-convertTemperature', true);
  // Still in step mode until Continue.
  await expect(page.getByTestId('step-panel')).toContainText('Step mode');

  await pressStepKey(page, runId, 'C');
  await expect(toolPause(page, 'convertTemperature')).toHaveCount(1);
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-1' }).getByTestId('graph-node-status')).toHaveText('ok');

  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
});

test('breakpoint: multi-round-research pauses before every readPage, one round at a time', async ({ page }) => {
  const runId = await startFromHome(page, 'multi-round-research', { kind: 'breakpoints', tools: ['readPage'] });
  for (const ref of ['read-1', 'read-2']) {
    const card = toolPause(page, 'readPage');
    await expect(card.locator('h3')).toHaveText(`Paused before tool readPage#${ref}`);
    await expect(pauseCards(page)).toHaveCount(1);
    await expect(ghosts(page)).toHaveCount(1);
    await expect(ghosts(page).first()).toContainText(`paused before readPage#${ref}`);
    await expectDecisionAccepted(page, runId, card.getByTestId('pause-continue'));
  }
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Rotate the key');
  await expect(pauseCards(page)).toHaveCount(0);
});

test('breakpoint (tool): "Send anyway" with an input that breaks the schema shows genkit\'s reaction', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'] });
  const card = toolPause(page, 'getWeather');
  await expect(card).toHaveCount(1);
  await openSection(card, 'Edit the input');
  await card.getByTestId('pause-input').fill('{"city": 42}');
  await clickAndWaitDecision(page, runId, card.getByTestId('pause-edit'));
  await expect(card.getByTestId('pause-error')).toContainText('city');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-force'));
  // genkit validates the tool's input itself and fails the generate.
  await expectRunStatus(page, 'failed');
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(page.getByTestId('run-failure')).toContainText('INVALID_ARGUMENT');
  await expect(page.getByTestId('run-failure')).toContainText('city: must be string');
});

test('step: a reloaded run page shows the same pauses and ghost nodes, and can still be stepped', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);

  await page.reload();
  await expect(pauseCards(page)).toHaveCount(2);
  expect(await pauseTitles(page)).toEqual(['Paused before tool getWeather#weather-1', 'Paused before tool convertTemperature#convert-1']);
  await expect(ghosts(page)).toHaveCount(2);
  await expectRunStatus(page, 'running');

  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(LISBON);
});

test('everyday: step keys work while a breakpoint checkbox has focus (a checkbox takes no text)', async ({ page }) => {
  const runId = await startFromHome(page, 'plain-tool-round', { kind: 'breakpoints', tools: ['getWeather'] });
  await expect(toolPause(page, 'getWeather')).toHaveCount(1);
  await setBreakpointCheckbox(page, runId, 'bp-edit-model-all', true);
  await expect(page.getByTestId('bp-edit-model-all')).toBeFocused();
  const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/continue$`)));
  await page.keyboard.press('c');
  expect((await posted).status()).toBeLessThan(300);
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test('everyday: a stepped run keeps its pause controls and its graph in view together', async ({ page }) => {
    await startFromHome(page, 'plain-tool-round', { kind: 'step' });
    await expect(modelPause(page)).toHaveCount(1);
    await expect(page.getByTestId('step-button')).toBeInViewport();
    await expect(modelPause(page)).toBeInViewport({ ratio: 0.3 });
    await expect(page.getByTestId('run-graph')).toBeInViewport({ ratio: 0.5 });
    await expect(ghosts(page).first()).toBeInViewport();
  });
});
