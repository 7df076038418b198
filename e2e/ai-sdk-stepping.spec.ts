import { expect, test } from '@playwright/test';
import { expectRunStatus, spanRowsWhere } from './helpers';
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
 * Step-by-step AI SDK runs (issue 12): the same page, keys and ghost nodes as genkit's
 * (e2e/stepping.spec.ts), with the real `generateText` loop pausing in the runner — before each
 * model call (the scripted model wrapped with `wrapLanguageModel`) and each tool's `execute`.
 */

test.use({ viewport: { width: 1440, height: 900 } });
stopStartedRunsAfterEach();

const PLAIN = 'ai-sdk-plain-tool-round';
const ANSWER = 'It is 24°C (75°F) and sunny in Lisbon.';

test('ai sdk: step through a scenario — a ghost at every pause, parallel tools released in any order, S and C keys', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const seen: string[] = [];

  await expect(modelPause(page)).toHaveCount(1);
  await expect(pauseCards(page).first().locator('h3')).toHaveText('Paused before model call 1');
  await expect(ghosts(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before model call 1');
  // The chat span the SDK opened is not drawn beside the ghost: the ghost stands for it.
  await expect(graphNodes(page, 'model-call')).toHaveCount(0);
  await expect(page.getByTestId('step-state')).toContainText('paused at 1 step(s)');
  seen.push(...(await pauseTitles(page)));

  // S: the model asks for both tools; both pause together, each a ghost in place of its running execute_tool.
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

test('ai sdk: step through a scenario, edit a tool input, answer a model call by hand', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);

  // An input that breaks the tool's zod schema is refused; the edited one runs.
  const weather = toolPause(page, 'getWeather');
  await openSection(weather, 'Edit the input');
  const input = weather.getByTestId('pause-input');
  await expect(input).toHaveValue(/Lisbon/);
  await input.fill('{"city": 42}');
  const refused = await clickAndWaitDecision(page, runId, weather.getByTestId('pause-edit'));
  expect(refused.status(), 'the broken input is refused').toBeGreaterThanOrEqual(400);
  await expect(weather.getByTestId('pause-error')).toContainText('city');
  await expect(weather.getByTestId('pause-error')).toContainText('the AI SDK');
  await expect(weather.getByTestId('pause-force')).toBeVisible();
  await input.fill('{"city":"Porto"}');
  await expectDecisionAccepted(page, runId, weather.getByTestId('pause-edit'));
  await expectDecisionAccepted(page, runId, toolPause(page, 'convertTemperature').getByTestId('pause-continue'));

  // Model call 2 answered by hand: the model is not called.
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

  // The tool ran with the edited input: its span says so.
  await page.getByTestId('tab-spans').click();
  const row = spanRowsWhere(page, { role: 'tool', label: 'getWeather' });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(page.getByTestId('detail-input')).toContainText('Porto');
  await expect(page.getByTestId('detail-output')).toContainText('Porto');
});

test('ai sdk: a pause card offers what the AI SDK can do — edit the request, fail a model call, no genkit interrupt', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const model = modelPause(page);
  await expect(model).toHaveCount(1);
  await expect(model.locator('summary')).toHaveText(['Edit the request', "Replace the model's answer", 'Fail here']);
  await pressStepKey(page, runId, 'S');
  const tool = toolPause(page, 'getWeather');
  await expect(tool).toHaveCount(1);
  await expect(tool.locator('summary')).toHaveText(['Edit the input', 'Answer without running', 'Fail here']);
  await expect(tool.getByTestId('pause-interrupt')).toHaveCount(0);
});

test('ai sdk: edit the model request — a history with the model’s answer already in it makes the scripted model answer at once', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'step' });
  const card = modelPause(page);
  await openSection(card, 'Edit the request');
  const request = card.getByTestId('pause-request');
  await expect(request).toHaveValue(/What's the weather in Lisbon, in Fahrenheit\?/);

  // Not a prompt: refused, naming the field.
  await request.fill('[{"role":"robot","content":"hi"}]');
  const refused = await clickAndWaitDecision(page, runId, card.getByTestId('pause-edit-request'));
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  await expect(card.getByTestId('pause-error')).toContainText('role');
  await expectRunStatus(page, 'running');

  // The scripted model plays the turn the history says: one assistant message in, so its second (final) turn.
  const edited = [
    { role: 'user', content: [{ type: 'text', text: "What's the weather in Lisbon?" }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me think.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
  ];
  await request.fill(JSON.stringify(edited));
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-edit-request'));
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText(ANSWER);
  // No tool ran: the edited request changed what the model answered.
  await expect(graphNodes(page, 'model-call')).toHaveCount(1);
  await expect(graphNodes(page, 'tool-call')).toHaveCount(0);
  await expect(graphNodes(page, 'generate').getByTestId('graph-node-note')).toHaveAttribute('title', /edited by hand at a pause/);
});

test('ai sdk: a breakpoint on a throwing tool, answered without running — the run finishes, the tool drawn answered by hand', async ({ page }) => {
  const runId = await startFromHome(page, 'ai-sdk-tool-throws', { kind: 'breakpoints', tools: ['checkInventory'] });
  const card = toolPause(page, 'checkInventory');
  await expect(card.locator('h3')).toHaveText('Paused before tool checkInventory#stock-1');
  await expect(pauseCards(page)).toHaveCount(1);
  await expect(ghosts(page).first()).toContainText('paused before checkInventory#stock-1');
  await openSection(card, 'Answer without running');
  await card.getByTestId('pause-output').fill('{"sku":"MUG-BLUE","inStock":7}');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-answer'));
  await expectRunStatus(page, 'finished');
  const tool = graphNodes(page, 'tool-call').filter({ hasText: 'checkInventory#stock-1' });
  await expect(tool.getByTestId('graph-node-status')).toHaveText('answered by hand — the tool did not run');
});

test('ai sdk: fail a tool here — the SDK hands the model a tool-error and the loop goes on to its answer', async ({ page }) => {
  const runId = await startFromHome(page, PLAIN, { kind: 'breakpoints', tools: ['convertTemperature'] });
  const card = toolPause(page, 'convertTemperature');
  await expect(card).toHaveCount(1);
  // getWeather has no breakpoint: it ran.
  await expect(graphNodes(page, 'tool-call').filter({ hasText: 'getWeather#weather-1' }).getByTestId('graph-node-status')).toHaveText('ok');
  await openSection(card, 'Fail here');
  await card.getByTestId('pause-fail-message').fill('Conversion refused by the e2e test');
  await expectDecisionAccepted(page, runId, card.getByTestId('pause-fail'));
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-failure')).toHaveCount(0);
  const tool = graphNodes(page, 'tool-call').filter({ hasText: 'convertTemperature#convert-1' });
  await expect(tool.getByTestId('graph-node-status')).toContainText('tool-error');
  await expect(graphNodes(page, 'model-call')).toHaveCount(2);
});

sharedSteppingTests({ prefix: 'ai sdk', scenario: PLAIN, answer: ANSWER });
