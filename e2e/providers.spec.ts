import { expect, test, type Page } from '@playwright/test';
import { BROKEN_JSON_MODEL, scenarioReplies, startFakeOpenAiServer, type FakeOpenAiServer } from '../lib/runner/testing/fake-openai-server';
import { AUTH, expectRunStatus, openHomeWithReadyRunner, rawRequest, spanRowsWhere } from './helpers';

/**
 * Scenarios on a real model, clicked through: the user sets a fake OpenAI-compatible server on
 * loopback as the endpoint, picks one of the models it lists, and runs a shipped scenario on it
 * (genkit through @genkit-ai/compat-oai; the loop, tools and spans are the real ones).
 */
const API_KEY = 'sk-e2e-provider-key';
let fake: FakeOpenAiServer;

test.beforeAll(async () => {
  fake = await startFakeOpenAiServer({ models: ['fake-model', BROKEN_JSON_MODEL], reply: scenarioReplies, apiKey: API_KEY });
});
test.afterAll(async ({ request }) => {
  // The other specs run on the same server: leave it without an endpoint (and its runners replaced back).
  await request.post('/api/provider', { headers: AUTH, data: { baseUrl: null, apiKey: null } });
  await fake?.close();
});

/** Sets the endpoint in the form, then picks `model` from the list the server fetched from it. */
async function pickModel(page: Page, model: string) {
  await openHomeWithReadyRunner(page);
  const picker = page.getByTestId('model-picker');
  await picker.getByTestId('endpoint-summary').click();
  await picker.getByTestId('endpoint-url').fill(fake.baseUrl);
  await picker.getByTestId('endpoint-key').fill(API_KEY);
  const listed = page.waitForResponse((response) => response.url().endsWith('/api/provider/models'));
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/provider') && response.request().method() === 'POST');
  await picker.getByTestId('endpoint-save').click();
  expect((await saved).status()).toBe(200);
  expect(await (await listed).json()).toEqual({ models: [BROKEN_JSON_MODEL, 'fake-model'].sort() });
  await expect(picker.getByTestId('endpoint-source')).toHaveText('set here · API key set');
  // The key went to the server, never back: the field is empty again and no answer carries it.
  await expect(picker.getByTestId('endpoint-key')).toHaveValue('');
  await picker.getByTestId('model-select').selectOption(`openai-compatible:${model}`);
}

async function run(page: Page, scenario: string) {
  const started = page.waitForResponse((response) => response.url().endsWith('/api/runs') && response.request().method() === 'POST');
  await page.locator(`[data-testid=scenario-card][data-scenario="${scenario}"]`).getByTestId(`run-${scenario}`).click();
  const response = await started;
  expect(response.status(), await response.text()).toBe(202);
  expect(JSON.stringify(await response.json())).not.toContain(API_KEY);
  await page.waitForURL(/\/runs\/[^/?]+$/);
}

test('the user picks a model of the endpoint, runs respond-to-question on it: the model’s call pauses, the scripted answer resumes it on the same model', async ({ page }) => {
  await pickModel(page, 'fake-model');
  const requestsBefore = fake.chatRequests.length;
  await run(page, 'respond-to-question');
  await expectRunStatus(page, 'interrupted');
  await expect(page.getByTestId('run-provider')).toHaveText(' · on fake-model (OpenAI-compatible)');
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  expect(fake.chatRequests.length).toBe(requestsBefore + 1);
  expect(fake.chatRequests.at(-1)).toMatchObject({ model: 'fake-model', authorization: `Bearer ${API_KEY}` });

  const resumed = page.waitForResponse((response) => /\/api\/runs\/[^/]+\/resume$/.test(response.url()));
  await page.getByTestId('resume-scripted').click();
  expect((await resumed).status()).toBeLessThan(300);
  await expectRunStatus(page, 'finished');
  // The fake quotes the tool message it got: the scripted answer reached the real client path.
  await expect(page.getByTestId('run-text')).toContainText('The tools said: {"answer":"Window"}');
  await page.getByTestId('tab-spans').click();
  await expect(spanRowsWhere(page, { role: 'model', label: 'openai-compatible/fake-model' })).toHaveCount(2);
  await expect(spanRowsWhere(page, { role: 'tool', label: 'askUser' })).toHaveCount(1);
});

test('a model that returns malformed tool-call JSON: the run fails with the model’s error, no tool runs', async ({ page }) => {
  await pickModel(page, BROKEN_JSON_MODEL);
  await run(page, 'plain-tool-round');
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText(/Unterminated string in JSON/);
  await page.getByTestId('tab-spans').click();
  await expect(spanRowsWhere(page, { role: 'model', label: `openai-compatible/${BROKEN_JSON_MODEL}` })).toHaveAttribute('data-outcome', 'error');
  await expect(spanRowsWhere(page, { role: 'tool' })).toHaveCount(0);
});

test('an endpoint that refuses the listing is shown as data: its status and an excerpt', async ({ page, request }) => {
  await request.post('/api/provider', { headers: AUTH, data: { baseUrl: fake.baseUrl, apiKey: 'not-the-key' } });
  await openHomeWithReadyRunner(page);
  await expect(page.getByTestId('models-problem')).toContainText(`GET ${fake.baseUrl}/models answered 401: "{\\"error\\":{\\"message\\":\\"Incorrect API key provided.`);
  expect(JSON.stringify(await (await request.get('/api/provider', { headers: AUTH })).json())).not.toContain('not-the-key');
  // Neither the setting nor the list is open to a request without the token (no cookie either).
  expect((await rawRequest({ path: '/api/provider/models', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  expect((await rawRequest({ method: 'POST', path: '/api/provider', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ baseUrl: 'http://127.0.0.1:1/v1' }) })).status).toBe(401);
});
