import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../../resume/resume-context';
import { resumeSnippet, validateResume } from '../../resume/validate-resume';
import { loadTraceFile } from '../../trace/load-trace-file';
import type { LocalToolFacts } from '../resume-model';

/**
 * genkit Go's answer rules on the paused calls of real Go runs. What genkit Go itself does with
 * each broken answer is measured against the real module in
 * lib/runtime/genkit-go/go-scenarios.capture.test.ts ("genkit Go's own answer to broken parts",
 * "a ToolApproval hold").
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'dialects', 'genkit-go', '__fixtures__');
async function pausedCall(name: string) {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].filter((span) => span.name === 'generate' && !span.parentSpanId).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return resumeContextFrom(spans.filter((span) => span.traceId === first.traceId));
}
const words = (issues: { message: string }[]) => issues.map((issue) => issue.message).join('\n');
const TRANSFER = { name: 'transferMoney', ref: 'transfer-1' };
const EMAIL = { name: 'sendEmail', ref: 'email-1' };
/** What the Go runner says of tools/go's typed tool (its ready line: go-scenarios.capture.test.ts). */
const GO_TOOLS: ReadonlyMap<string, LocalToolFacts> = new Map([
  ['transferMoney', { resumeType: 'tools.Approval', resumeSchema: { type: 'object', properties: { approved: { type: 'boolean' }, approvedBy: { type: 'string' } } } }],
]);

describe('the paused genkit Go call, rebuilt', () => {
  it('its history, its interrupted request with the interrupt data, its tools — and the model from its model span (Go records none in the input)', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(context).toMatchObject({ dialect: 'genkit-go', model: 'scripted/go-restart-after-approval' });
    expect(context.requests).toEqual([{ ...TRANSFER, input: { to: 'Bob', amountUsd: 500 }, state: 'interrupted', interruptMetadata: { reason: 'approval-required', limitUsd: 100, amountUsd: 500 } }]);
    expect(context.tools.map((tool) => tool.name)).toEqual(['transferMoney']);
    // A typed tool is offered with the multipart envelope as its output schema (genkit Go 1.12's bug, named by the rules).
    expect(context.tools[0]).toMatchObject({ metadata: { multipart: true }, outputSchema: { properties: { output: true } } });
    expect(context.use).toBeUndefined();
  });

  it('a ToolApproval hold: the request is marked held, with the release, and the middleware the call used is kept for the resume', async () => {
    const context = await pausedCall('go-tool-approval-approved');
    expect(context.requests.map((request) => [request.name, request.state, request.heldBy?.by, request.heldBy?.release])).toEqual([
      ['getWeather', 'pending', undefined, undefined],
      ['sendEmail', 'interrupted', 'ToolApproval', { toolApproved: true }],
    ]);
    expect(context.use).toEqual([{ name: 'genkit-middleware/toolApproval', config: { allowedTools: ['getWeather'] } }]);
  });
});

describe('genkit Go answer rules, each named', () => {
  it('a restart with typed resume data is accepted; the payload is the parts tool.Resume builds, and the snippet is Go', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const result = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: true, approvedBy: 'dana' } }], localTools: GO_TOOLS });
    expect(result.errors).toEqual([]);
    expect(result.payload.resume!.restart).toEqual([{ toolRequest: { ...TRANSFER, input: { to: 'Bob', amountUsd: 500 } }, metadata: { resumed: { approved: true, approvedBy: 'dana' } } }]);
    const snippet = resumeSnippet({ context, payload: result.payload });
    expect(snippet).toContain('restart1, err := tool.Resume(interrupted(resp, "transferMoney", "transfer-1"), map[string]any{');
    expect(snippet).toContain('"approvedBy": "dana",');
    expect(snippet).toContain('\tai.WithToolRestarts(\n\t\trestart1,\n\t),');
    expect(snippet).not.toContain('WithUse');
  });

  it('resume data that is not an object is refused in tool.Resume’s words', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(words(validateResume({ context, restart: [{ ...TRANSFER, resumed: 'yes' }] }).errors)).toMatch(/^tool\.Resume: resume data must serialize to a JSON object \(a struct or map\): the resume data of transferMoney#transfer-1 is "yes"\.$/);
  });

  it('resume data that does not fit the typed tool’s Go resume type is refused; fields it lacks are not (json.Unmarshal ignores them)', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const wrong = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: 'yes' } }], localTools: GO_TOOLS });
    expect(words(wrong.errors)).toMatch(/resume data of transferMoney#transfer-1 does not fit its Go resume type tools\.Approval: .*approved.*aix\.wrapInterruptibleFunc: failed to convert resumed data/);
    expect(validateResume({ context, restart: [{ ...TRANSFER, resumed: { approvedBy: 'x', extra: 1 } }], localTools: GO_TOOLS }).errors).toEqual([]);
    // Without the runner's word on the tool, nothing is claimed.
    expect(validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: 'yes' } }] }).errors).toEqual([]);
  });

  it('a response part against the output schema the tool was offered with, in genkit Go’s words — and the typed tool’s envelope named', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const message = words(validateResume({ context, respond: [{ ...TRANSFER, output: { status: 'answered', to: 'Bob', amountUsd: 500 } }] }).errors);
    expect(message).toMatch(/^handleResumedToolRequest: tool "transferMoney" output validation failed: /);
    expect(message).toMatch(/genkit Go 1\.12\.0: transferMoney is a typed tool \(genkit\/exp\); .* MultipartToolResponse envelope/);
    // A stable tool's own schema: a good answer passes.
    const question = await pausedCall('go-respond-to-question');
    expect(validateResume({ context: question, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }] }).errors).toEqual([]);
  });

  it('an unanswered interrupt is a warning: genkit Go 1.12.0 sends the model the request without a response (genkit JS refuses)', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const result = validateResume({ context });
    expect(result.errors).toEqual([]);
    expect(words(result.warnings)).toMatch(/transferMoney#transfer-1 is not answered, and genkit Go 1\.12\.0 does not refuse that/);
  });

  it('answers only to requests of the last model message; a restart without data and a new input are warned about', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(validateResume({ context, respond: [{ name: 'transferMoney', ref: 'transfer-9', output: {} }] }).errors).toContainEqual(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(words(validateResume({ context, restart: [TRANSFER] }).warnings)).toMatch(/restarted with no resume data(.|\n)*One or more tools triggered an interrupt during a restarted execution/);
    const replaced = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: true }, replaceInput: { to: 5 } }] });
    expect(words(replaced.errors)).toMatch(/new input of transferMoney#transfer-1 does not match the tool's input schema/);
    expect(words(replaced.warnings)).toMatch(/history the model sees keeps the original input — as genkit JS 1\.42's bug 2/);
  });

  it('a finished sibling answered, and one request answered twice, are refused as genkit Go refuses them', async () => {
    const context = await pausedCall('go-parallel-pending-output');
    const twice = validateResume({
      context,
      respond: [{ name: 'transferMoney', ref: 'refund-1', output: { output: { status: 'done', to: 'Ada Lovelace', amountUsd: 240 } } }],
      restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }],
    });
    expect(words(twice.errors)).toMatch(/answered 2 times: genkit Go checks the response part .* never the restart/);
    const sibling = validateResume({ context, respond: [{ name: 'lookupOrder', ref: 'order-1', output: {} }], restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }] });
    expect(words(sibling.errors)).toMatch(/lookupOrder#order-1 was not interrupted \(it finished: its pendingOutput is reused\): tool\.Respond \/ tool\.Resume refuse it/);
  });

  it('a ToolApproval hold is released only by toolApproved: true (else it is held again and genkit Go fails); a response part refuses it; the snippet uses the middleware again', async () => {
    const context = await pausedCall('go-tool-approval-approved');
    for (const resumed of [undefined, true, {}, { toolApproved: false }, { toolApproved: 'yes' }]) {
      expect(words(validateResume({ context, restart: [{ ...EMAIL, ...(resumed === undefined ? {} : { resumed }) }] }).errors), JSON.stringify(resumed)).toMatch(
        /^sendEmail#email-1 is held by ToolApproval: a restart without toolApproved: true in its resume data is held again, and genkit Go fails the generate \(FAILED_PRECONDITION: One or more tools triggered an interrupt during a restarted execution\.\)/,
      );
    }
    const approved = validateResume({ context, restart: [{ ...EMAIL, resumed: { toolApproved: true } }] });
    expect(approved.errors).toEqual([]);
    expect(approved.warnings).toEqual([]);
    const snippet = resumeSnippet({ context, payload: approved.payload });
    expect(snippet).toContain('\tai.WithUse(&middleware.ToolApproval{AllowedTools: []string{"getWeather"}}),');
    expect(snippet).toContain('restart1, err := tool.Resume(interrupted(resp, "sendEmail", "email-1"), map[string]any{');
    const refused = validateResume({ context, respond: [{ ...EMAIL, output: { status: 'not sent', to: 'ana@example.com', subject: 'Lisbon weather' } }] });
    expect(refused.errors).toEqual([]);
    expect(resumeSnippet({ context, payload: refused.payload })).toContain('response1, err := tool.Respond(interrupted(resp, "sendEmail", "email-1"), map[string]any{');
  });

  it('the workbench’s start: a hold waits for an approval and starts as a restart with toolApproved: true; a typed tool’s restart starts from its resume type', async () => {
    const { DIALECTS } = await import('../registry');
    const rules = DIALECTS.find((dialect) => dialect.id === 'genkit-go')!.resume!;
    const held = (await pausedCall('go-tool-approval-approved')).requests.find((request) => request.name === 'sendEmail')!;
    expect(rules.waitingFor!(held, undefined)).toMatchObject({ waitingFor: 'approval', evidence: expect.stringMatching(/^ToolApproval holds it — held by the ToolApproval middleware/) });
    expect(rules.defaultKind!(held)).toBe('restart');
    expect(rules.resumedExample!({ request: held, localTools: undefined, exampleOf: () => 'unused' })).toEqual({ toolApproved: true });
    const typed = (await pausedCall('go-restart-after-approval')).requests[0];
    expect(rules.waitingFor!(typed, GO_TOOLS)).toEqual({});
    expect(rules.resumedExample!({ request: typed, localTools: GO_TOOLS, exampleOf: (schema) => ({ from: schema }) })).toEqual({ from: GO_TOOLS.get('transferMoney')!.resumeSchema });
    // …and says how the tool receives it.
    expect(rules.resumedAs!(typed, GO_TOOLS)).toMatch(/^transferMoney receives it as a tools\.Approval \(json\.Unmarshal/);
    expect(rules.resumedAs!(typed, undefined)).toBeUndefined();
    expect(rules.resumedAs!(held, undefined)).toMatch(/^ToolApproval reads toolApproved from it; past the hook, sendEmail runs/);
  });
});
