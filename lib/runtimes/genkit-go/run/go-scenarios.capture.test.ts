import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReceiver, type TestReceiver } from '../../../server/testing/capture-harness';
import { buildGoRunner, startGoRunner, type GoGenerateResult, type GoRunner } from './go-runner';

/**
 * Every genkit Go scenario (tools/go/scenarios/) run by the real genkit Go module (v1.12.0, go/runner)
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
  it('the runner lists the tools of tools/go/ once it is ready, each typed tool with its Go resume type as a JSON schema', () => {
    expect(runner.tools.map((tool) => tool.name)).toEqual(['askUser', 'bookFlight', 'checkInventory', 'convertTemperature', 'flagForReview', 'getWeather', 'lookupOrder', 'sendEmail', 'transferMoney']);
    expect(runner.tools.find((tool) => tool.name === 'transferMoney')).toMatchObject({ resumeType: 'tools.Approval', resumeSchema: { type: 'object', properties: { approved: { type: 'boolean' }, approvedBy: { type: 'string' } } } });
    expect(runner.tools.find((tool) => tool.name === 'bookFlight')).toMatchObject({ resumeType: 'tools.Confirmation', resumeSchema: { properties: { confirmed: { type: 'boolean' } } } });
    expect(runner.tools.find((tool) => tool.name === 'sendEmail')?.resumeSchema).toBeUndefined();
    expect(readdirSync(SCENARIOS).filter((file) => file.endsWith('.json'))).toHaveLength(10);
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
    // genkit Go 1.12 runs the restarted tool inside the resume's generate span, before its next turn (one trace, as genkit JS).
    expect(second.traceIds).toHaveLength(1);
    const spans2 = await spansOf(second);
    const root = spans2.find((span) => span.name === 'generate' && !span.parentSpanId)!;
    expect(spans2.filter((span) => span.parentSpanId === root.spanId).map((span) => [span.name, span.attributes['genkit:state']]).sort()).toEqual([['generate', 'success'], ['transferMoney', 'success']]);
    // …and records the resume in its input as genkit JS does.
    expect(JSON.parse(String(root.attributes['genkit:input'])).resume).toEqual({ restart: [{ toolRequest: { name: 'transferMoney', ref: 'transfer-1', input: { to: 'Bob', amountUsd: 500 } }, metadata: { resumed: { approved: true, approvedBy: 'alice' } } }] });
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
    expect(nonObject.failure?.message).toMatch(/tool\.Interrupt: interrupt data must serialize to a JSON object \(a struct or map\), got string/);
    const throws = await runner.generate({ scenario: 'go-tool-throws' });
    expect(throws.failure?.message).toMatch(/Inventory service returned 503 for SKU-1234/);
    const unknown = await runner.generate({ scenario: 'go-unknown-tool' });
    expect(unknown.failure?.message).toMatch(/tool "cancelSubscription" not found/);
    for (const result of [nonObject, throws, unknown]) expect((await spansOf(result)).some((span) => span.attributes['genkit:state'] === 'error')).toBe(true);
  });

  it('genkit Go’s own answer to broken parts — what the Go rules (lib/runtimes/genkit-go/read/resume-rules.ts) say it does', async () => {
    const first = await runner.generate({ scenario: 'go-restart-after-approval' });
    const messages = first.outcome!.messages;
    const send = (resume: { respond?: unknown[]; restart?: unknown[] }) => runner.generate({ scenario: 'go-restart-after-approval', messages, resume });
    // Non-object resume data: genkit's tool.Resume refuses to build the part.
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: 'yes' }] })).failure).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringMatching(/^tool\.Resume: resume data must serialize to a JSON object/) });
    // Data that does not fit the typed tool's resume type (tools.Approval): the tool fails.
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: 'yes' } }] })).failure?.message).toMatch(/aix\.wrapInterruptibleFunc: failed to convert resumed data: json: cannot unmarshal string into Go struct field Approval\.approved of type bool/);
    // Fields the type does not have are ignored (json.Unmarshal).
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approvedBy: 'x', extra: 1 } }] })).outcome?.text).toBe('Transfer done: 500 USD to Bob, approved by x.');
    // No resume data: the typed tool gets an empty Approval.
    expect((await send({ restart: [{ name: 'transferMoney', ref: 'transfer-1' }] })).outcome?.text).toBe('Transfer done: 500 USD to Bob, approved by (no transferMoney#transfer-1.approvedBy).');
    // A tool that interrupts again when restarted fails the generate (askUser always interrupts).
    const question = await runner.generate({ scenario: 'go-respond-to-question' });
    const again = await runner.generate({ scenario: 'go-respond-to-question', messages: question.outcome!.messages, resume: { restart: [{ name: 'askUser', ref: 'seat-1', resumed: { seat: 'any' } }] } });
    expect(again.failure).toMatchObject({ status: 'FAILED_PRECONDITION', message: 'One or more tools triggered an interrupt during a restarted execution.' });
    // A response part to the typed tool is checked against the multipart envelope it is offered with (genkit Go 1.12's bug): its own output is refused.
    const own = await send({ respond: [{ name: 'transferMoney', ref: 'transfer-1', output: { status: 'answered', to: 'Bob', amountUsd: 500 } }] });
    expect(own.failure).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringMatching(/handleResumedToolRequest: tool "transferMoney" output validation failed(.|\n)*Additional property status is not allowed/) });
    // Nothing answered: no refusal — the model gets the interrupted request with no response.
    expect((await send({})).outcome).toMatchObject({ finishReason: 'stop', text: expect.stringContaining('(no transferMoney#transfer-1.status)') });
    // Answering a finished sibling: genkit's tool.Respond refuses to build the part.
    const parallel = await runner.generate({ scenario: 'go-parallel-pending-output' });
    const sibling = await runner.generate({ scenario: 'go-parallel-pending-output', messages: parallel.outcome!.messages, resume: { respond: [{ name: 'lookupOrder', ref: 'order-1', output: {} }], restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approvedBy: 'z' } }] } });
    expect(sibling.failure).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'tool.Respond: part is not an interrupted tool request' });
  });

  it('a ToolApproval hold: the hook’s own interrupt on a tool-shaped span (the tool never ran); released only by toolApproved: true', async () => {
    const first = await runner.generate({ scenario: 'go-tool-approval-approved' });
    expect(first.outcome).toMatchObject({ finishReason: 'interrupted', interrupts: [{ name: 'sendEmail', ref: 'email-1', metadata: { message: 'Tool not in approved list: sendEmail' } }] });
    const spans = await spansOf(first);
    expect(spans.map((span) => span.name).sort()).toEqual(['generate', 'getWeather', 'scripted/go-tool-approval-approved', 'sendEmail']);
    const held = spans.find((span) => span.name === 'sendEmail')!;
    expect([held.attributes['genkit:state'], held.attributes['genkit:output'], held.attributes['genkit:metadata:subtype']]).toEqual(['error', undefined, 'tool.v2']);
    // The evidence genkit Go records: the generate's input names the middleware and its config.
    const root = spans.find((span) => span.name === 'generate')!;
    expect(JSON.parse(String(root.attributes['genkit:input'])).use).toEqual([{ name: 'genkit-middleware/toolApproval', config: { allowedTools: ['getWeather'] } }]);
    const messages = first.outcome!.messages;
    const send = (resumed?: unknown) => runner.generate({ scenario: 'go-tool-approval-approved', messages, resume: { restart: [{ name: 'sendEmail', ref: 'email-1', ...(resumed === undefined ? {} : { resumed }) }] } });
    for (const resumed of [undefined, {}, { toolApproved: false }, { toolApproved: 'yes' }]) {
      expect((await send(resumed)).failure, JSON.stringify(resumed)).toMatchObject({ status: 'FAILED_PRECONDITION', message: 'One or more tools triggered an interrupt during a restarted execution.' });
    }
    const approved = await send({ toolApproved: true });
    expect(approved.outcome?.text).toBe('Email sent to ana@example.com: Lisbon is 24°C and sunny.');
    expect((await spansOf(approved)).filter((span) => span.name === 'sendEmail').map((span) => span.attributes['genkit:state'])).toEqual(['success']);
    const refused = await runner.generate({ scenario: 'go-tool-approval-refused', messages: (await runner.generate({ scenario: 'go-tool-approval-refused' })).outcome!.messages, resume: scenario('go-tool-approval-refused').resumes![0] });
    expect(refused.outcome?.text).toBe('Email not sent (refused by the approver) to ana@example.com: Lisbon is 24°C and sunny.');
    expect((await spansOf(refused)).some((span) => span.name === 'sendEmail')).toBe(false);
  });
});
