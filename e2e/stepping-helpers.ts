import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { AUTH, expectRunStatus, openHomeWithReadyRunner } from './helpers';

/**
 * What the stepping specs share (genkit's e2e/stepping.spec.ts, the AI SDK's
 * e2e/ai-sdk-stepping.spec.ts, genkit Go's e2e/go-stepping.spec.ts): starting a run from its
 * card, the pause cards, ghost nodes, the step keys, decisions and breakpoint checkboxes, and the
 * tests that read the same on every runtime (`sharedSteppingTests`). The page is the same for all.
 */

export type StartHow = { kind: 'step' } | { kind: 'breakpoints'; tools?: string[]; everyModelCall?: boolean };

/** Runs started by the current test: stopped afterwards if a failure left them paused. */
const startedRuns: string[] = [];

/** Registers, in the calling spec, the hook that stops the runs its test left paused. */
export function stopStartedRunsAfterEach(): void {
  test.afterEach(async ({ request }) => {
    for (const runId of startedRuns.splice(0)) {
      const response = await request.get(`/api/runs/${runId}`, { headers: AUTH });
      if (!response.ok()) continue;
      const { run } = (await response.json()) as { run: { status: string } };
      if (run.status === 'running') await request.post(`/api/runs/${runId}/stop`, { headers: AUTH, data: {} });
    }
  });
}

export function isPost(path: RegExp): (response: Response) => boolean {
  return (response) => response.request().method() === 'POST' && path.test(new URL(response.url()).pathname);
}

/**
 * Starts a scenario from its home card — with "Step through" or with "Run to breakpoints" after
 * ticking the given checkboxes — checks the POST /api/runs body, waits for the run page.
 */
export async function startFromHome(page: Page, scenario: string, how: StartHow): Promise<string> {
  await openHomeWithReadyRunner(page);
  const card = page.locator(`[data-testid=scenario-card][data-scenario="${scenario}"]`);
  await expect(card).toBeVisible();
  const started = page.waitForResponse(isPost(/^\/api\/runs$/));
  if (how.kind === 'step') {
    await card.getByTestId(`step-${scenario}`).click();
  } else {
    await card.locator('summary', { hasText: 'Breakpoints…' }).click();
    for (const tool of how.tools ?? []) await card.getByTestId(`bp-tool-${scenario}-${tool}`).check();
    if (how.everyModelCall) await card.getByTestId(`bp-model-${scenario}`).check();
    await card.getByTestId(`breakpoints-${scenario}`).click();
  }
  const response = await started;
  expect(response.status(), `POST /api/runs answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
  const body = response.request().postDataJSON() as { scenario: string; mode: { kind: string; breakpoints?: { tools: string[]; modelTurns: unknown } } };
  expect(body.scenario).toBe(scenario);
  expect(body.mode.kind).toBe(how.kind);
  if (how.kind === 'breakpoints') {
    expect([...(body.mode.breakpoints?.tools ?? [])].sort()).toEqual([...(how.tools ?? [])].sort());
    expect(body.mode.breakpoints?.modelTurns).toEqual(how.everyModelCall ? 'all' : []);
  }
  await page.waitForURL(/\/runs\/[^/?]+$/);
  const runId = page.url().split('/runs/')[1];
  startedRuns.push(runId);
  await expect(page.getByTestId('step-panel')).toBeVisible();
  return runId;
}

export function pauseCards(page: Page): Locator {
  return page.getByTestId('pause-card');
}

export function pauseTitles(page: Page): Promise<string[]> {
  return pauseCards(page).locator('h3').allTextContents();
}

export function toolPause(page: Page, tool: string): Locator {
  return page.locator(`[data-testid=pause-card][data-kind=tool][data-tool="${tool}"]`);
}

export function modelPause(page: Page): Locator {
  return page.locator('[data-testid=pause-card][data-kind=model]');
}

export function graphNodes(page: Page, kind?: string): Locator {
  return page.locator(`[data-testid=run-graph] [data-testid=graph-node]${kind ? `[data-kind="${kind}"]` : ''}`);
}

export function ghosts(page: Page): Locator {
  return graphNodes(page, 'ghost');
}

/** Presses a step shortcut with the focus outside any text field, and waits for its POST. */
export async function pressStepKey(page: Page, runId: string, key: 'S' | 'C' | 'X'): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const action = { S: 'step', C: 'continue', X: 'stop' }[key];
  const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/${action}$`)));
  await page.keyboard.press(key.toLowerCase());
  const response = await posted;
  expect(response.status(), `POST ${action} answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
}

/** Clicks a button that POSTs a decision at a pause and returns the server's answer. */
export async function clickAndWaitDecision(page: Page, runId: string, button: Locator): Promise<Response> {
  const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/pauses/[^/]+$`)));
  await button.click();
  return posted;
}

export async function expectDecisionAccepted(page: Page, runId: string, button: Locator): Promise<void> {
  const response = await clickAndWaitDecision(page, runId, button);
  expect(response.status(), `decision answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
}

/** Opens one of a pause card's <details> sections by clicking its summary. */
export async function openSection(card: Locator, summary: string | RegExp): Promise<void> {
  const details = card.locator('details').filter({ has: card.page().locator('summary', { hasText: summary }) });
  await details.locator('summary').click();
  await expect(details).toHaveAttribute('open', '');
}

export async function setBreakpointCheckbox(page: Page, runId: string, testId: string, checked: boolean): Promise<void> {
  const posted = page.waitForResponse(isPost(new RegExp(`^/api/runs/${runId}/breakpoints$`)));
  const box = page.getByTestId(testId);
  // A controlled checkbox: it shows the server's breakpoints, so it changes once the POST is
  // answered and the run update arrives — a plain click, not check(), which wants it at once.
  if (checked) await expect(box).not.toBeChecked();
  else await expect(box).toBeChecked();
  await box.click();
  const response = await posted;
  expect(response.status(), `POST breakpoints answered ${response.status()}: ${await response.text()}`).toBeLessThan(300);
  if (checked) await expect(box).toBeChecked();
  else await expect(box).not.toBeChecked();
}

/**
 * Steps `scenario` to its two paused tools and presses X: the run is stopped ("stopped by the user"),
 * its pauses and ghosts are gone and Stop is disabled. (The scenario's first turn asks for two tools.)
 */
export async function stopWithKeyWhileToolsPaused(page: Page, scenario: string): Promise<void> {
  const runId = await startFromHome(page, scenario, { kind: 'step' });
  await expect(modelPause(page)).toHaveCount(1);
  await pressStepKey(page, runId, 'S');
  await expect(pauseCards(page)).toHaveCount(2);
  await pressStepKey(page, runId, 'X');
  await expectRunStatus(page, 'stopped');
  await expect(page.getByTestId('run-failure')).toContainText('stopped by the user');
  await expect(pauseCards(page)).toHaveCount(0);
  await expect(ghosts(page)).toHaveCount(0);
  await expect(page.getByTestId('stop-button')).toBeDisabled();
}

/**
 * The stepping tests that read the same on every runtime, registered in the calling spec with its
 * title prefix (`ai sdk`, `go`): fail a model call, breakpoints changed while paused, a reloaded
 * run page, key X at two tool pauses. `scenario` is the runtime's plain tool round (getWeather and
 * convertTemperature in parallel), `answer` its final text.
 */
export function sharedSteppingTests({ prefix, scenario, answer }: { prefix: string; scenario: string; answer: string }): void {
  test(`${prefix}: fail a model call here — the run fails with the message`, async ({ page }) => {
    const runId = await startFromHome(page, scenario, { kind: 'breakpoints', everyModelCall: true });
    const card = modelPause(page);
    await openSection(card, 'Fail here');
    await expect(card.getByTestId('pause-fail')).toHaveText('Fail the model call');
    await card.getByTestId('pause-fail-message').fill('Provider refused by the e2e test');
    await expectDecisionAccepted(page, runId, card.getByTestId('pause-fail'));
    await expectRunStatus(page, 'failed');
    await expect(page.getByTestId('run-failure')).toContainText('Provider refused by the e2e test');
  });

  test(`${prefix}: breakpoints changed while paused — every model call ticked at a tool pause is where C stops next`, async ({ page }) => {
    const runId = await startFromHome(page, scenario, { kind: 'breakpoints', tools: ['getWeather'] });
    await expect(toolPause(page, 'getWeather')).toHaveCount(1);
    await expect(pauseCards(page)).toHaveCount(1);
    await expect(page.getByTestId('bp-edit-tool-getWeather')).toBeChecked();
    await expect(page.getByTestId('bp-edit-tool-convertTemperature')).not.toBeChecked();
    await setBreakpointCheckbox(page, runId, 'bp-edit-model-all', true);
    await pressStepKey(page, runId, 'C');
    await expect(modelPause(page).locator('h3')).toHaveText('Paused before model call 2');
    await expect(ghosts(page).first()).toContainText('paused before model call 2');
    await setBreakpointCheckbox(page, runId, 'bp-edit-model-all', false);
    await pressStepKey(page, runId, 'C');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('run-text')).toContainText(answer);
  });

  test(`${prefix}: a reloaded run page shows the same pauses and ghosts, and can still be stepped`, async ({ page }) => {
    const runId = await startFromHome(page, scenario, { kind: 'step' });
    await expect(modelPause(page)).toHaveCount(1);
    await pressStepKey(page, runId, 'S');
    await expect(pauseCards(page)).toHaveCount(2);
    await page.reload();
    await expect(pauseCards(page)).toHaveCount(2);
    await expect(ghosts(page)).toHaveCount(2);
    await expect(graphNodes(page, 'tool-call')).toHaveCount(0);
    await pressStepKey(page, runId, 'C');
    await expectRunStatus(page, 'finished');
    await expect(page.getByTestId('run-text')).toContainText(answer);
  });

  test(`${prefix}: key X while two tools are paused stops the run — stopped, "stopped by the user"`, async ({ page }) => {
    await stopWithKeyWhileToolsPaused(page, scenario);
  });
}
