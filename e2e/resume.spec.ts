import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buildRunGraph } from '../lib/graph/build-run-graph';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import { E2E_TRACES_DIR } from '../playwright.config';
import { AUTH, expectRunStatus, openHomeWithReadyRunner, runScenarioFromHome, startSecondServer, stopSecondServers } from './helpers';

test('resume: the user answers a saved trace’s interrupt by restart from the workbench and the new run finishes', async ({ page }) => {
  await openHomeWithReadyRunner(page);
  await page.goto('/saved/restart-after-approval.json');
  // The saved file holds the interrupt and its recorded answer; answer it again, differently.
  const interrupt = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').first();
  await interrupt.click();
  await page.getByTestId('open-workbench').click();
  const request = page.locator('[data-testid=workbench-request][data-request="transferMoney#transfer-1"]');
  await expect(request).toHaveAttribute('data-state', 'interrupted');
  await request.getByTestId('workbench-mode-restart').check();
  await request.getByTestId('workbench-resumed').fill('{"approved": true, "approvedBy": "dana"}');
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  await expect(page.getByTestId('workbench-payload')).toContainText('dana');
  const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await page.getByTestId('workbench-resume').click();
  expect((await resumed).status()).toBe(202);
  await page.getByTestId('workbench-result').getByRole('link').click();
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-text')).toContainText('500 USD');
});

test('resume: an answer that breaks the output schema shows genkit’s rule and cannot be sent', async ({ page }) => {
  await runScenarioFromHome(page, 'respond-to-question', 'graph');
  await expectRunStatus(page, 'interrupted');
  await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
  await page.getByTestId('open-workbench').click();
  const request = page.locator('[data-testid=workbench-request][data-request="askUser#seat-1"]');
  await request.getByTestId('workbench-output').fill('{"answer": 5}');
  await expect(page.getByTestId('workbench-error')).toContainText("does not match the tool's output schema");
  await expect(page.getByTestId('workbench-resume')).toBeDisabled();
  await request.getByTestId('workbench-output').fill('{"answer": "Aisle"}');
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  await expect(page.getByTestId('workbench-resume')).toBeEnabled();
});

test('resume: two alternative answers to one interrupt show as two branches of the graph', async ({ page }) => {
  await runScenarioFromHome(page, 'respond-to-question', 'graph');
  await expectRunStatus(page, 'interrupted');
  const runUrl = page.url();
  const traceLink = page.getByRole('link', { name: 'first generate' });
  const traceHref = await traceLink.getAttribute('href');
  for (const answer of ['Window', 'Aisle']) {
    await page.goto(runUrl);
    await page.locator('[data-testid=graph-node][data-kind=tool-interrupt]').click();
    await page.getByTestId('open-workbench').click();
    await page.locator('[data-testid=workbench-request][data-request="askUser#seat-1"]').getByTestId('workbench-output').fill(JSON.stringify({ answer }));
    await expect(page.getByTestId('workbench-payload')).toContainText(answer);
    const resumed = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
    await page.getByTestId('workbench-resume').click();
    expect((await resumed).status()).toBe(202);
    await page.getByTestId('workbench-result').getByRole('link').click();
    await expectRunStatus(page, 'finished');
  }
  // The original trace opens with its session: both resumes answer its interrupt. (Links are by
  // content, as genkit's are: earlier identical runs of the scenario may join the session too,
  // so the checks look at this trace's own interrupt.)
  await page.goto(traceHref!);
  const traceId = traceHref!.split('/traces/')[1];
  const interrupt = page.locator(`[data-testid=graph-node][data-kind=tool-interrupt][data-node-id^="${traceId}:"]`);
  await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — answered by respond');
  await expect(page.locator(`[data-testid=run-graph] .react-flow__edge[data-id^="${traceId}:"][data-id*="=>"]`)).toHaveCount(2);
});

// ——— The resume matrix (issue 5): every interrupting scenario, answered by respond and by
// restart, from the live run; the same from its saved file on a fresh server. ———

interface InterruptAnswer {
  /** `name#ref` of the interrupted request. */
  request: string;
  /** A valid respond output (the tool's output schema). */
  output: Record<string, unknown>;
  /** Resumed metadata for a restart. */
  resumed: Record<string, unknown>;
  /** What the restarted tool returns given `resumed` (undefined: the tool is respond-only). */
  restartedOutput?: Record<string, unknown>;
}

interface InterruptCase {
  scenario: string;
  interrupts: InterruptAnswer[];
  /** Requests of the same turn that finished (pendingOutput): listed, need no answer, not re-run. */
  pending: string[];
  /** A `defineInterrupt` tool (restartable: false): meant for respond only. */
  respondOnly?: boolean;
  /** Part of the scripted model's final answer. */
  /** What the scripted model ends with, per way of answering (its text quotes the tool's output). */
  finalText: Record<'respond' | 'restart', string>;
}

const CASES: InterruptCase[] = [
  {
    scenario: 'restart-after-approval',
    interrupts: [
      {
        request: 'transferMoney#transfer-1',
        output: { status: 'rejected', to: 'Bob', amountUsd: 500 },
        resumed: { approved: true, approvedBy: 'e2e-approver' },
        restartedOutput: { status: 'done', to: 'Bob', amountUsd: 500, approvedBy: 'e2e-approver' },
      },
    ],
    pending: [],
    // The scripted text quotes what the tool returned: the hand answer, not the script's own.
    finalText: { respond: 'Transfer rejected: 500 USD to Bob, approved by (no transferMoney#transfer-1.approvedBy)', restart: 'Transfer done: 500 USD to Bob, approved by e2e-approver' },
  },
  {
    scenario: 'respond-to-question',
    interrupts: [{ request: 'askUser#seat-1', output: { answer: 'Aisle' }, resumed: { confirmed: true } }],
    pending: [],
    respondOnly: true,
    finalText: { respond: 'Booked your seat (Aisle)', restart: 'Booked your seat' },
  },
  {
    scenario: 'parallel-pending-output',
    interrupts: [
      {
        request: 'transferMoney#refund-1',
        output: { status: 'done', to: 'Ada Lovelace', amountUsd: 240, approvedBy: 'e2e-by-hand' },
        resumed: { approved: true, approvedBy: 'e2e-lead' },
        restartedOutput: { status: 'done', to: 'Ada Lovelace', amountUsd: 240, approvedBy: 'e2e-lead' },
      },
    ],
    pending: ['lookupOrder#order-1'],
    finalText: { respond: 'Refund done: 240 USD to Ada Lovelace for order A-17, approved by e2e-by-hand', restart: 'Refund done: 240 USD to Ada Lovelace for order A-17, approved by e2e-lead' },
  },
];

const toolName = (request: string) => request.split('#')[0];
const refOf = (request: string) => request.split('#')[1];
const nodeLocator = (page: Page, filter: { kind: string; traceId: string; label?: string }) =>
  page.locator(`[data-testid=graph-node][data-kind="${filter.kind}"][data-node-id^="${filter.traceId}:"]`).filter(filter.label ? { has: page.getByText(filter.label, { exact: true }) } : {});
const traceIdOfLink = async (link: Locator) => ((await link.getAttribute('href')) ?? '').split('/traces/')[1];

test('resume matrix: it covers every scenario that interrupts, each with its saved example trace', () => {
  // A scenario that interrupts ships a scripted answer (`resumes`): a new one needs a case in
  // CASES. Each has a saved example in traces/ where a generate ended "interrupted", which the
  // saved-trace tests below answer again. The matrix is genkit's (respond / restart): AI SDK
  // scenarios answer with approve / deny / respond (lib/runtimes/ai-sdk/run/ai-sdk-scenarios.capture.test.ts).
  const scenarioDir = path.join(process.cwd(), 'tools', 'scenarios');
  const interrupting = readdirSync(scenarioDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(scenarioDir, file), 'utf8')) as { name: string; runtime?: string; resumes?: unknown[] })
    .filter((scenario) => (scenario.runtime ?? 'genkit-js') === 'genkit-js')
    .filter((scenario) => (scenario.resumes?.length ?? 0) > 0)
    .map((scenario) => scenario.name)
    .sort();
  expect(CASES.map((kase) => kase.scenario).sort()).toEqual(interrupting);
  for (const kase of CASES) {
    expect(readFileSync(path.join(process.cwd(), 'traces', `${kase.scenario}.json`), 'utf8'), `traces/${kase.scenario}.json`).toContain('finishReason\\":\\"interrupted');
  }
});

/** Fills the open workbench: every interrupt answered by `mode`, pending requests left alone; checks the payload. */
async function answerEveryInterrupt(page: Page, kase: InterruptCase, mode: 'respond' | 'restart'): Promise<void> {
  const workbench = page.getByRole('region', { name: 'Resume workbench' });
  await expect(workbench.getByTestId('workbench-request')).toHaveCount(kase.interrupts.length + kase.pending.length);
  for (const pending of kase.pending) {
    const row = workbench.locator(`[data-testid=workbench-request][data-request="${pending}"]`);
    await expect(row).toHaveAttribute('data-state', 'pending');
    await expect(row).toContainText('its pendingOutput is reused, it needs no answer');
    await expect(row.getByRole('radio')).toHaveCount(0);
  }
  for (const answer of kase.interrupts) {
    const row = workbench.locator(`[data-testid=workbench-request][data-request="${answer.request}"]`);
    await expect(row).toHaveAttribute('data-state', 'interrupted');
    await expect(row.getByRole('radio', { name: /^Respond/ })).toBeChecked();
    if (mode === 'respond') {
      await row.getByRole('textbox', { name: `Output for ${answer.request}` }).fill(JSON.stringify(answer.output));
    } else {
      await row.getByRole('radio', { name: /^Restart/ }).check();
      await row.getByRole('textbox', { name: `Resumed metadata for ${answer.request}` }).fill(JSON.stringify(answer.resumed));
    }
  }
  // What will be sent is exactly genkit's respond / restart parts for these answers.
  const parts = kase.interrupts.map((answer) =>
    mode === 'respond'
      ? { toolResponse: { name: toolName(answer.request), ref: refOf(answer.request), output: answer.output }, metadata: { interruptResponse: true } }
      : { toolRequest: { name: toolName(answer.request), ref: refOf(answer.request) }, metadata: { resumed: answer.resumed } },
  );
  // The server checks every edit (POST /api/resume/check); the payload shown is the last checked one.
  const checkedPayload = workbench.locator('[data-testid=workbench-payload][data-checked=true]');
  const payload = async () => JSON.parse((await checkedPayload.textContent()) ?? '') as { resume: { respond: unknown[]; restart: unknown[] } };
  await expect.poll(async () => ((await checkedPayload.count()) === 1 ? (await payload()).resume[mode] : undefined)).toMatchObject(parts);
  expect((await payload()).resume[mode === 'respond' ? 'restart' : 'respond']).toEqual([]);
}

/** Presses Resume; returns the new run's id (the workbench's link to it). */
async function pressResume(page: Page): Promise<string> {
  await expect(page.getByTestId('workbench-ok')).toBeVisible();
  const resumed = page.waitForResponse((response) => response.url() === `${new URL(page.url()).origin}/api/resume`);
  await page.getByTestId('workbench-resume').click();
  const response = await resumed;
  expect(response.status(), await response.text()).toBe(202);
  const { run } = (await response.json()) as { run: { runId: string } };
  await expect(page.getByTestId('workbench-result').getByRole('link', { name: 'open the new run' })).toHaveAttribute('href', `/runs/${run.runId}`);
  return run.runId;
}

/**
 * Follows the workbench's link to the new run and checks it finished, with the answers in its
 * graph. Returns the new trace id and the id of the resume node of each interrupted request.
 */
async function expectNewRunFinished(page: Page, kase: InterruptCase, mode: 'respond' | 'restart'): Promise<{ traceId: string; resolutions: Map<string, string> }> {
  await page.getByTestId('workbench-result').getByRole('link', { name: 'open the new run' }).click();
  await page.waitForURL(/\/runs\/[^/?]+$/);
  await expectRunStatus(page, 'finished');
  await expect(page.getByTestId('run-finish-reason')).toHaveText('stop');
  await expect(page.getByTestId('run-text')).toContainText(kase.finalText[mode]);
  const traceId = await traceIdOfLink(page.locator('.trace-links').getByRole('link'));
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  // The run page draws the resume with the recording it answers: the new generate is a resume of an earlier one.
  await expect(page.getByTestId('resume-of')).toBeVisible();
  await expect(page.locator(`[data-testid=graph-node][data-kind=generate][data-node-id^="${traceId}:"]`).filter({ has: page.getByText(/^generate \d+ \(resume/) })).toHaveCount(1);
  await expect(page.locator('[data-testid=graph-node][data-kind=generate]')).not.toHaveCount(1);
  await expect(nodeLocator(page, { kind: 'final-answer', traceId }).getByTestId('graph-node-status')).toHaveText('finishReason: stop');
  const resolutions = new Map<string, string>();
  for (const answer of kase.interrupts) {
    const node = nodeLocator(page, { kind: `resume-${mode}`, traceId, label: answer.request });
    await expect(node).toHaveCount(1);
    resolutions.set(answer.request, (await node.getAttribute('data-node-id')) as string);
    if (mode === 'respond') {
      // The hand-written output is what the model got; the tool did not run again.
      await expect(node).toHaveAttribute('title', JSON.stringify(answer.output));
      await expect(nodeLocator(page, { kind: 'tool-call', traceId, label: answer.request })).toHaveCount(0);
    } else {
      // The tool ran again, read ctx.resumed and returned accordingly.
      const ran = nodeLocator(page, { kind: 'tool-call', traceId, label: answer.request });
      await expect(ran.getByTestId('graph-node-status')).toHaveText('ok — restarted by a resume');
      await ran.click();
      await expect(page.getByTestId('node-detail').getByTestId('detail-resumed')).toHaveText(JSON.stringify(answer.resumed, null, 2));
      await expect(page.getByTestId('node-detail').getByTestId('detail-output')).toHaveText(JSON.stringify(answer.restartedOutput, null, 2));
    }
  }
  for (const pending of kase.pending) {
    // The parked result is reused: no new run of that tool.
    await expect(nodeLocator(page, { kind: 'resume-pending', traceId, label: pending }).getByTestId('graph-node-status')).toHaveText('pendingOutput reused — not re-run');
    await expect(nodeLocator(page, { kind: 'tool-call', traceId, label: pending })).toHaveCount(0);
  }
  return { traceId, resolutions };
}

/**
 * A respond-only tool asked to restart: the workbench warns (genkit 1.42 bug 1), Resume waits
 * for a confirmation, and once confirmed the resume runs and crashes exactly as the bug says.
 */
async function expectRespondOnlyRestartWarned(page: Page, kase: InterruptCase): Promise<void> {
  const workbench = page.getByRole('region', { name: 'Resume workbench' });
  const name = toolName(kase.interrupts[0].request);
  await expect(workbench.getByTestId('workbench-warning').first()).toContainText(`${name} is respond-only (defineInterrupt): restarting it interrupts again, and genkit 1.42 then crashes with a TypeError (bug 1)`);
  await expect(workbench.getByTestId('workbench-resume')).toBeDisabled();
  await workbench.getByTestId('workbench-confirm').check();
  await expect(workbench.getByTestId('workbench-resume')).toBeEnabled();
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/resume'));
  await workbench.getByTestId('workbench-resume').click();
  expect((await answered).status()).toBe(202);
  await workbench.getByTestId('workbench-result').getByRole('link').click();
  await expectRunStatus(page, 'failed');
  await expect(page.getByTestId('run-failure')).toContainText("Cannot read properties of undefined (reading 'tools')");
}

for (const kase of CASES) {
  for (const mode of ['respond', 'restart'] as const) {
    const refused = mode === 'restart' && kase.respondOnly;
    test(`resume from the live run: ${kase.scenario} — every interrupt answered by ${mode}${refused ? ' warns (respond-only tool); confirmed, genkit 1.42 crashes as bug 1 says' : ', the new run finishes, linked to the interrupt'}`, async ({ page }) => {
      await runScenarioFromHome(page, kase.scenario, 'graph');
      await expectRunStatus(page, 'interrupted');
      const traceId = await traceIdOfLink(page.getByRole('link', { name: 'first generate' }));
      const interruptIds = new Map<string, string>();
      for (const answer of kase.interrupts) {
        const interrupt = nodeLocator(page, { kind: 'tool-interrupt', traceId, label: answer.request });
        await expect(interrupt.getByTestId('graph-node-status')).toHaveText('paused — waiting for an answer');
        interruptIds.set(answer.request, (await interrupt.getAttribute('data-node-id')) as string);
      }
      const pendingIds = new Map<string, string>();
      for (const pending of kase.pending) {
        const parked = nodeLocator(page, { kind: 'tool-call', traceId, label: pending });
        await expect(parked.getByTestId('graph-node-status')).toHaveText('ok — parked as pendingOutput');
        pendingIds.set(pending, (await parked.getAttribute('data-node-id')) as string);
      }

      await nodeLocator(page, { kind: 'tool-interrupt', traceId }).first().click();
      await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
      await answerEveryInterrupt(page, kase, mode);

      if (refused) {
        await expectRespondOnlyRestartWarned(page, kase);
        return;
      }

      await pressResume(page);
      // The live run's page says where its pause was answered, and draws the answer live (everyday, issue 14).
      await expect(page.getByTestId('answered-by').getByRole('link', { name: 'the resumed run' })).toBeVisible();
      await expectRunStatus(page, 'answered');
      await expect(page.getByTestId('pause-banner')).toHaveCount(0);
      await expect(page.locator('[data-testid=graph-node][data-kind=generate]').filter({ hasText: /\(resume\)/ })).toHaveCount(1);
      for (const request of interruptIds.keys()) {
        await expect(nodeLocator(page, { kind: 'tool-interrupt', traceId, label: request }).getByTestId('graph-node-status')).toHaveText(`paused — answered by ${mode}`);
      }
      const created = await expectNewRunFinished(page, kase, mode);
      // The original trace opens with its session: the new generate is there, linked by a
      // dashed edge from this trace's own interrupt to its answer (earlier identical runs of the
      // scenario may join the session by content; the checks name this run's nodes).
      await page.goto(`/traces/${traceId}`);
      await expect(nodeLocator(page, { kind: 'generate', traceId: created.traceId }).getByTestId('graph-node-status')).toHaveText('ok');
      await expect(nodeLocator(page, { kind: 'generate', traceId }).getByTestId('graph-node-status')).toHaveText(/^paused — resumed by generate \d+$/);
      for (const [request, interruptId] of interruptIds) {
        await expect(nodeLocator(page, { kind: 'tool-interrupt', traceId, label: request }).getByTestId('graph-node-status')).toHaveText(`paused — answered by ${mode}`);
        await expect(page.locator(`[data-testid=run-graph] .react-flow__edge[data-id="${interruptId}=>${created.resolutions.get(request)}"]`)).toHaveCount(1);
      }
      for (const [request, parkedId] of pendingIds) {
        const reused = nodeLocator(page, { kind: 'resume-pending', traceId: created.traceId, label: request });
        const reusedId = (await reused.getAttribute('data-node-id')) as string;
        await expect(page.locator(`[data-testid=run-graph] .react-flow__edge[data-id="${parkedId}=>${reusedId}"]`)).toHaveCount(1);
      }
    });
  }
}

// ——— After a server restart: a fresh server process (same build, data folders and tools)
// answers interrupts from files alone; nothing of the first server's memory is needed. ———

test.afterEach(async () => {
  // A test that timed out never reached its finally.
  await stopSecondServers();
});

/** Node ids of the interrupts (by `name#ref`) among the given graph nodes. */
async function interruptNodeIds(nodes: Locator, kase: InterruptCase): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const answer of kase.interrupts) {
    const node = nodes.filter({ has: nodes.page().getByText(answer.request, { exact: true }) });
    await expect(node).toHaveCount(1);
    ids.set(answer.request, (await node.getAttribute('data-node-id')) as string);
  }
  return ids;
}

for (const kase of CASES) {
  test(`resume from a saved trace after a server restart: traces/${kase.scenario}.json answered by respond and by restart on a fresh server`, async ({ page, request }) => {
    const file = `${kase.scenario}.json`;
    const savedPath = path.join(process.cwd(), E2E_TRACES_DIR, file);
    const savedBefore = readFileSync(savedPath, 'utf8');
    const server = await startSecondServer();
    try {
      await openHomeWithReadyRunner(page, server.baseUrl);
      for (const mode of ['respond', 'restart'] as const) {
        await page.goto(`${server.baseUrl}/saved/${file}`);
        // The saved file holds the interrupt and the answer recorded with it.
        const interrupts = page.locator('[data-testid=graph-node][data-kind=tool-interrupt]');
        await expect(interrupts).toHaveCount(kase.interrupts.length);
        await expect(interrupts.getByTestId('graph-node-status')).toHaveText(kase.interrupts.map(() => /^paused — answered by (respond|restart)$/));
        const interruptIds = await interruptNodeIds(interrupts, kase);
        await interrupts.first().click();
        await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
        await answerEveryInterrupt(page, kase, mode);
        if (mode === 'restart' && kase.respondOnly) {
          await expectRespondOnlyRestartWarned(page, kase);
          continue;
        }
        await pressResume(page);
        const created = await expectNewRunFinished(page, kase, mode);
        expect(new URL(page.url()).origin).toBe(server.baseUrl);
        // The new trace answers the saved interrupt: read together (as `loopscope graph <file>
        // <new trace>` would), the graph links each saved interrupt to this run's answer.
        const saved = await request.get(`${server.baseUrl}/api/saved/${file}`, { headers: AUTH });
        const fresh = await request.get(`${server.baseUrl}/api/traces/${created.traceId}`, { headers: AUTH });
        expect(saved.status()).toBe(200);
        expect(fresh.status()).toBe(200);
        const graph = buildRunGraph([...decodeOtlpJson(await saved.json()), ...decodeOtlpJson(await fresh.json())]);
        for (const [requestLabel, interruptId] of interruptIds) {
          expect(graph.edges).toContainEqual(expect.objectContaining({ kind: 'answer', source: interruptId, target: created.resolutions.get(requestLabel) }));
        }
        expect(graph.summary.finishReason).toBe('stop');
      }
      // Saved files are never modified.
      expect(readFileSync(savedPath, 'utf8')).toBe(savedBefore);
    } finally {
      await server.stop();
    }
    await expect(fetch(`${server.baseUrl}/`)).rejects.toThrow();
  });
}

test('resume from a captured trace after a server restart: a live run interrupted on the e2e server is answered on a fresh server and links to it', async ({ page }) => {
  const kase = CASES[0];
  await runScenarioFromHome(page, kase.scenario, 'graph');
  await expectRunStatus(page, 'interrupted');
  const traceId = await traceIdOfLink(page.getByRole('link', { name: 'first generate' }));
  const interruptIds = await interruptNodeIds(page.locator(`[data-testid=graph-node][data-kind=tool-interrupt][data-node-id^="${traceId}:"]`), kase);
  const server = await startSecondServer();
  try {
    await openHomeWithReadyRunner(page, server.baseUrl);
    // Its session may hold earlier identical runs: open this trace's interrupt by its node id.
    const [interruptId] = interruptIds.values();
    await page.goto(`${server.baseUrl}/traces/${traceId}?node=${encodeURIComponent(interruptId)}`);
    await expect(page.getByTestId('node-detail')).toContainText(kase.interrupts[0].request);
    await page.getByRole('button', { name: 'Answer this interrupt…' }).click();
    await answerEveryInterrupt(page, kase, 'respond');
    await pressResume(page);
    const created = await expectNewRunFinished(page, kase, 'respond');
    expect(new URL(page.url()).origin).toBe(server.baseUrl);
    await page.goto(`${server.baseUrl}/traces/${traceId}`);
    for (const [requestLabel, id] of interruptIds) {
      await expect(nodeLocator(page, { kind: 'tool-interrupt', traceId, label: requestLabel }).getByTestId('graph-node-status')).toHaveText('paused — answered by respond');
      await expect(page.locator(`[data-testid=run-graph] .react-flow__edge[data-id="${id}=>${created.resolutions.get(requestLabel)}"]`)).toHaveCount(1);
    }
  } finally {
    await server.stop();
  }
  await expect(fetch(`${server.baseUrl}/`)).rejects.toThrow();
});
