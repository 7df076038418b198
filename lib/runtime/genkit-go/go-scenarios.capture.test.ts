import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReceiver, type TestReceiver } from '../../server/testing/capture-harness';
import { buildGoRunner, startGoRunner, type GoGenerateResult, type GoRunner } from './go-runner';

/**
 * Every genkit Go scenario (tools/go/scenarios/) run by the real genkit Go module (v1.4.0, go/runner)
 * with the tools of tools/go/, its spans exported by the standard OTLP/HTTP exporter to a
 * receiver with the server's decoder — then counted per call.
 */
let receiver: TestReceiver;
let runner: GoRunner;

beforeAll(async () => {
  receiver = await startTestReceiver();
  const binary = await buildGoRunner({ projectDir: process.cwd() });
  runner = await startGoRunner({ binary, projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token });
}, 600_000);
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
});

const SCENARIOS = path.join(process.cwd(), 'tools', 'go', 'scenarios');
const scenario = (name: string) => JSON.parse(readFileSync(path.join(SCENARIOS, `${name}.json`), 'utf8')) as { resumes?: { respond?: unknown[]; restart?: unknown[] }[] };

/** Every span of every trace the call recorded. */
async function spansOf(result: GoGenerateResult) {
  expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
  const spans = [];
  for (const traceId of result.traceIds ?? []) spans.push(...((await receiver.store.get(traceId)) ?? []));
  return spans;
}

describe('genkit Go scenarios, run for real', () => {
  it('the runner lists the tools of tools/go/ once it is ready', () => {
    expect(runner.tools).toEqual(['askUser', 'bookFlight', 'checkInventory', 'convertTemperature', 'flagForReview', 'getWeather', 'lookupOrder', 'transferMoney']);
    expect(readdirSync(SCENARIOS).filter((file) => file.endsWith('.json'))).toHaveLength(8);
  });

  it('a plain round: both tools run in parallel; a generate per turn (the second inside the first), two model calls, two tools arrive (6 spans)', async () => {
    const result = await runner.generate({ scenario: 'go-plain-tool-round' });
    expect(result.outcome).toMatchObject({ finishReason: 'stop', text: 'It is 24°C (75°F) and sunny in Lisbon.', interrupts: [] });
    const spans = await spansOf(result);
    expect(spans.map((span) => span.name).sort()).toEqual(['convertTemperature', 'generate', 'generate', 'getWeather', 'scripted/go-plain-tool-round', 'scripted/go-plain-tool-round']);
    expect(spans.find((span) => span.name === 'getWeather')!.attributes['genkit:metadata:subtype']).toBe('tool.v2');
  });

  it('an interrupt ends the call "interrupted"; the tool span ends genkit:state=error with no interrupt attribute (Go’s difference)', async () => {
    const first = await runner.generate({ scenario: 'go-restart-after-approval' });
    expect(first.outcome).toMatchObject({ finishReason: 'interrupted', interrupts: [{ name: 'transferMoney', ref: 'transfer-1', metadata: { reason: 'approval-required', limitUsd: 100, amountUsd: 500 } }] });
    const spans = await spansOf(first);
    const tool = spans.find((span) => span.name === 'transferMoney')!;
    expect(tool.attributes['genkit:state']).toBe('error');
    expect(tool.attributes['genkit:metadata:interrupt']).toBeUndefined();
    const [resume] = scenario('go-restart-after-approval').resumes!;
    const second = await runner.generate({ scenario: 'go-restart-after-approval', messages: first.outcome!.messages, resume });
    expect(second.outcome).toMatchObject({ finishReason: 'stop', text: 'Transfer done: 500 USD to Bob, approved by alice.' });
    // genkit Go 1.4.0 runs the restarted tool before the generate, in a trace of its own.
    expect(second.traceIds).toHaveLength(2);
    const [restarted, generate] = await Promise.all(second.traceIds!.map(async (traceId) => (await receiver.store.get(traceId)) ?? []));
    expect(restarted.map((span) => [span.name, span.parentSpanId, span.attributes['genkit:state']])).toEqual([['transferMoney', undefined, 'success']]);
    expect(generate.map((span) => span.name).sort()).toEqual(['generate', 'scripted/go-restart-after-approval']);
  });

  it('restart with a new input, respond, and a finished sibling parked as pendingOutput', async () => {
    for (const [name, text] of [
      ['go-restart-with-input', 'Booked: LIS → OPO on 2027-06-04.'],
      ['go-respond-to-question', 'Booked your seat (Window) on the 9:40 to Porto.'],
      ['go-parallel-pending-output', 'Refund done: 240 USD to Ada Lovelace for order A-17, approved by support-lead.'],
    ] as const) {
      const first = await runner.generate({ scenario: name });
      expect(first.outcome?.finishReason, name).toBe('interrupted');
      await spansOf(first);
      const second = await runner.generate({ scenario: name, messages: first.outcome!.messages, resume: scenario(name).resumes![0] });
      expect(second.failure, name).toBeUndefined();
      expect(second.outcome?.text, name).toBe(text);
    }
  });

  it('what fails the call: interrupt data that is not an object, a tool error, an unknown tool — each with genkit Go’s message', async () => {
    const nonObject = await runner.generate({ scenario: 'go-non-object-interrupt' });
    expect(nonObject.failure?.message).toMatch(/InterruptWith: failed to convert metadata/);
    const throws = await runner.generate({ scenario: 'go-tool-throws' });
    expect(throws.failure?.message).toMatch(/Inventory service returned 503 for SKU-1234/);
    const unknown = await runner.generate({ scenario: 'go-unknown-tool' });
    expect(unknown.failure?.message).toMatch(/tool "cancelSubscription" not found/);
    for (const result of [nonObject, throws, unknown]) expect((await spansOf(result)).some((span) => span.attributes['genkit:state'] === 'error')).toBe(true);
  });

  it('genkit Go’s own answer to broken parts — what the Go rules (lib/dialects/genkit-go/resume-rules.ts) say it does', async () => {
    const first = await runner.generate({ scenario: 'go-restart-after-approval' });
    const messages = first.outcome!.messages;
    const send = (resume: { respond?: unknown[]; restart?: unknown[] }) => runner.generate({ scenario: 'go-restart-after-approval', messages, resume });
    // Non-object resumed data never reaches the tool: it interrupts again, which fails the restart.
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: 'yes' }] })).failure).toMatchObject({ status: 'FAILED_PRECONDITION', message: 'One or more tools triggered an interrupt during a restarted execution.' });
    // No resumed data: ToolContext.Resumed is an empty map — IsResumed() is true, no value is there.
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1' }] })).outcome?.text).toBe('Transfer done: 500 USD to Bob, approved by (no transferMoney#transfer-1.approvedBy).');
    // A tool that interrupts again when restarted fails the generate (askUser always interrupts).
    const question = await runner.generate({ scenario: 'go-respond-to-question' });
    const again = await runner.generate({ scenario: 'go-respond-to-question', messages: question.outcome!.messages, resume: { restart: [{ name: 'askUser', ref: 'seat-1', resumed: { seat: 'any' } }] } });
    expect(again.failure).toMatchObject({ status: 'FAILED_PRECONDITION', message: 'One or more tools triggered an interrupt during a restarted execution.' });
    // A response part that breaks the output schema: genkit Go's INVALID_ARGUMENT.
    expect((await send({ respond: [{ name: 'transferMoney', ref: 'transfer-1', output: { status: 5 } }] })).failure).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringMatching(/handleResumedToolRequest: tool "transferMoney" output validation failed/) });
    // Nothing answered: no refusal — the model gets the interrupted request with no response.
    expect((await send({})).outcome).toMatchObject({ finishReason: 'stop', text: expect.stringContaining('(no transferMoney#transfer-1.status)') });
    // Respond and restart for one request: the response part wins.
    const both = await send({ respond: [{ name: 'transferMoney', ref: 'transfer-1', output: { status: 'answered', to: 'Bob', amountUsd: 500 } }], restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true } }] });
    expect(both.outcome?.text).toMatch(/^Transfer answered:/);
  });
});

