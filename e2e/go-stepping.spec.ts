import { expect, test } from '@playwright/test';
import { AUTH, expectRunStatus, spanRowsWhere } from './helpers';
import {
  clickAndWaitDecision,
  expectDecisionAccepted,
  ghosts,
  graphNodes,
  modelPause,
  openSection,
  pauseCards,
  pauseTitles,
  pressStepKey,
  sharedSteppingTests,
  startFromHome,
  stopStartedRunsAfterEach,
  toolPause,
} from './stepping-helpers';

/**
 * Step-by-step genkit Go runs (issue 13): the same page, keys and ghost nodes as genkit JS's and
 * the AI SDK's, with genkit Go's own loop pausing in the Go runner — its middleware's WrapModel
 * and WrapTool hooks (go/runner/step.go).
 */

test.use({ viewport: { width: 1440, height: 900 } });
stopStartedRunsAfterEach();

const PLAIN = 'go-plain-tool-round';
const ANSWER = 'It is 24°C (75°F) and sunny in Lisbon.';

// The first Go run builds the Go runner: done once here, so no test below waits for the compiler.
test.beforeAll(async ({ request }) => {
  test.setTimeout(360_000);
  const started = await request.post('/api/runs', { headers: AUTH, data: { scenario: PLAIN } });
  expect(started.status()).toBeLessThan(300);
  const { run } = (await started.json()) as { run: { runId: string } };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${run.runId}`, { headers: AUTH })).json()) as { run: { status: string } }).run.status, { timeout: 300_000, intervals: [500] })
    .toBe('finished');
});

test('go: step through a scenario — a ghost at every pause, parallel tools released in any order, S and C keys', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const seen: string[] = [];

  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page).first().locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before model call 1');
  // genkit Go's hook runs before the model span starts: nothing is drawn beside the ghost.
  await expect(graphNodes(page, 'model-call')).toHaveCount(0);
  await expect(page.getByTestId('step-state')).toContainText('paused at 1 step(s)');
  seen.push(...(await pauseTitles(page)));

  // S: the model asks for both tools; both pause together, each a ghost in place of its request.
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);
  await expect(ghosts(page)).toHaveCount(2);
  await expect(ghosts(page).filter({ hasText: 'paused before getWeather#weather-1' })).toHaveCount(1);
  await expect(ghosts(page).filter({ hasText: 'paused before convertTemperature#convert-1' })).toHaveCount(1);
  await expect(graphNodes(page, 'model-call')).toHaveCount(1);
  await expect(graphNodes(page, 'tool-call')).toHaveCount(0);
  const tools = await pauseTitles(page);
  expect([...tools].sort()).toEqual(['Paused before tool convertTemperature#convert-1', 'Paused before tool getWeather#weather-1']);
  seen.push(...[...tools].sort());

  // convertTemperature first; getWeather stays paused, and its ghost with it.
  await expectDecisionAccepted(page, runId, toolPause(page, 'convertTemperature').getByTestId('pause-continue'));
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before getWeather#weather-1');
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'convertTemperature#convert-1' }).getByTestId('graph-node-status')).toHaveText('ok');

  await pressStepKey(page, runId, 'S');
  await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
  await expect(ghosts(page).first()).toContainText('paused before model call 2');
  seen.push(...(await pauseTitles(page)));

  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(ANSWER);
  await expect(page.getByTestId('run-text-by')).toHaveText('Scripted model:');
  await expect(ghosts(page)).toHaveCount(0);
  await expect(page.getByTestId('graph-summary')).toContainText('1 generate(s) · 2 model · 2 tool · 0 interrupt(s)');
  expect(seen).toEqual(['Paused before model call 1', 'Paused before tool convertTemperature#convert-1', 'Paused before tool getWeather#weather-1', 'Paused before model call 2']);
});

test('go: a pause card offers what genkit Go can do — edit the request, answer by hand, fail; at a tool, also a real genkit Go interrupt', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const model = modelPause(page);
  await expect(model).toHaveCount(1);
  await expect(model.locator('summary')).toHaveText(['Edit the request', "Replace the model's answer", 'Fail here']);
  await pressStepKey(page, runId, 'S');
  const tool = toolPause(page, 'getWeather');
  await expect(tool).toHaveCount(1);
  await expect(tool.locator('summary')).toHaveText(['Edit the input', 'Answer without running', 'Interrupt here', 'Fail here']);
  // Pre-filled from the Go tool's own output schema.
  await expect(tool.getByTestId('pause-output')).toHaveValue(/temperatureC/);
});

test('go: step through a scenario, edit a tool input (a broken one refused in the schema’s words), answer a model call by hand', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);

  const weather = toolPause(page, 'getWeather');
  await openSection(weather, 'Edit the input');
  const input = weather.getByTestId('pause-input');
  await expect(input).toHaveValue(/Lisbon/);
  await input.fill('{"city": 42}');
  const refused = await clickAndWaitDecision(page, runId, weather.getByTestId('pause-edit'));
  expect(refused.status(), 'the broken input is refused').toBeGreaterThanOrEqual(400);
  await expect(weather.getByTestId('pause-error')).toContainText('city');
  await expect(weather.getByTestId('pause-error')).toContainText('genkit Go');
  await expect(weather.getByTestId('pause-force')).toBeVisible();
  await input.fill('{"city":"Porto"}');
  await expectDecisionAccepted(page, runId, weather.getByTestId('pause-edit'));
  await expectDecisionAccepted(page, runId, toolPause(page, 'convertTemperature').getByTestId('pause-continue'));

  const card = modelPause(page);
  await expect(card.locator('h3')).toHaveText('Paused before model call 2');
  await openSection(card, "Replace the model's answer");
  await card.getByTestId('pause-parts').fill('[{"text":"Porto is 24°C, written by hand."}]');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-replace'));

  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('Porto is 24°C, written by hand.');
  await expect(page.getByTestId('run-text-by')).toHaveText('Hand-written answer:');
  const models = graphNodes(page, 'model-call');
  await expect(models).toHaveCount(2);
  await expect(models.filter({ hasText: 'loopscope/hand-written' })).toHaveCount(1);

  await page.getByTestId('tab-spans').click();
  const row = spanRowsWhere(page, { role: 'tool', label: 'getWeather' });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(page.getByTestId('detail-input')).toContainText('Porto');
  await expect(page.getByTestId('detail-output')).toContainText('Porto');
});

test('go: edit the model request — the model is sent the edited messages, and the call says so', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const card = modelPause(page);
  await openSection(card, 'Edit the request');
  const request = card.getByTestId('pause-request');
  await expect(request).toHaveValue(/What's the weather in Lisbon, in Fahrenheit\?/);

  // Not genkit Go messages: refused, naming what is wrong, and the run stays paused.
  await request.fill('{"messages": "hi"}');
  const refused = await clickAndWaitDecision(page, runId, card.getByTestId('pause-edit-request'));
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  await expect(card.getByTestId('pause-error')).toContainText('not a list of genkit Go messages');
  await expectRunStatus(page, 'running');

  await request.fill(JSON.stringify([{ role: 'user', content: [{ text: "What's the weather in Oslo, in Fahrenheit?" }] }]));
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-edit-request'));
  await pressStepKey(page, runId, 'C');
  await expectRunStatus(page, 'finished');
  await expect(graphNodes(page, 'generate').first().getByTestId('graph-node-note')).toHaveAttribute('title', /edited by hand at a pause/);
});

test('go: a breakpoint on a failing tool, answered without running — the run finishes, the tool drawn answered by hand', async ({ page }) => {
  const runId = await startFromHome(page, 'go-tool-throws', { kind: 'breakpoints', tools: ['checkInventory'] });
  const card = toolPause(page, 'checkInventory');
  await expect(card.locator('h3')).toHaveText('Paused before tool checkInventory#stock-1');
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before checkInventory#stock-1');
  await openSection(card, 'Answer without running');
  await card.getByTestId('pause-output').fill('{"sku":"1234","inStock":7}');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-answer'));
  await expectRunStatus(page, 'finished');
  const tool = graphNodes(page, 'tool-call').filter({ hasText: 'checkInventory#stock-1' });
  await expect(tool.getByTestId('graph-node-status')).toHaveText('answered by hand — the tool did not run');
});

test('go: interrupt at a tool — a real genkit Go interrupt: the run pauses for an answer, the tool drawn as paused', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'breakpoints', tools: ['getWeather'] });
  const card = toolPause(page, 'getWeather');
  await openSection(card, 'Interrupt here');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-interrupt'));
  await expectRunStatus(page, 'interrupted');
  await expect(page.getByTestId('run-finish-reason')).toHaveText('interrupted');
  await expect(graphNodes(page, 'tool-interrupt').filter({ hasText: 'getWeather#weather-1' })).toHaveCount(1);
});

test('go: fail a tool here — genkit Go fails the generate with the message (no tool-error handed to the model)', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'breakpoints', tools: ['convertTemperature'] });
  const card = toolPause(page, 'convertTemperature');
  await expect(card).toHaveCount(1);
  await openSection(card, 'Fail here');
  await expect(card.getByTestId('pause-fail')).toHaveText('Fail the tool');
  await card.getByTestId('pause-fail-message').fill('Conversion refused by the e2e test');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-fail'));
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText('Conversion refused by the e2e test');
});

sharedSteppingTests({ prefix: 'go', scenario: PLAIN, answer: ANSWER });
