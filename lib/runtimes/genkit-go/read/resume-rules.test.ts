import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import { loadTraceFile } from '../../../store/load-trace-file';
import { resumeVerdictOf } from '../../../contract/resume-answers';
import type { LocalToolFacts } from '../../../loop/resume-model';

/**
 * genkit Go's answer rules on the paused calls of real Go runs. What genkit Go itself does with
 * each answer is measured against the real module, row by row, in resume-verdicts.capture.test.ts
 * (and lib/runtimes/genkit-go/run/go-scenarios.capture.test.ts: "genkit Go's own answer to broken
 * parts", "a ToolApproval hold").
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
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
    expect(words(validateResume({ context, restart: [{ ...TRANSFER, resumed: 'yes' }] }).errors)).toMatch(/^tool\.Resume: resume data must serialize to a JSON object \(a struct or map\), got string: the resume data of transferMoney#transfer-1 is "yes"\.$/);
    expect(words(validateResume({ context, restart: [{ ...TRANSFER, resumed: 5 }] }).errors)).toMatch(/, got float64: /);
    // null is no data, as the tool's Restart without ResumedMetadata.
    expect(validateResume({ context, restart: [{ ...TRANSFER, resumed: null }] }).errors).toEqual([]);
  });

  it('resume data that does not fit the typed tool’s Go resume type is refused; fields it lacks or has extra are not (json.Unmarshal); without the type, it is unchecked', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const wrong = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: 'yes' } }], localTools: GO_TOOLS });
    expect(wrong.errors).toEqual([expect.objectContaining({ code: 'INTERNAL' })]);
    expect(words(wrong.errors)).toMatch(/^tool "transferMoney" failed: error calling tool transferMoney: aix\.wrapInterruptibleFunc: failed to convert resumed data: json: cannot unmarshal string into Go struct field … — the resume data of transferMoney#transfer-1 does not fit its Go resume type tools\.Approval \(approved: Invalid type\. Expected: boolean, given: string\)/);
    expect(resumeVerdictOf(wrong)).toBe('refused');
    const fits = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approvedBy: 'x', extra: 1, approved: null } }], localTools: GO_TOOLS });
    expect([fits.errors, fits.unchecked, resumeVerdictOf(fits)]).toEqual([[], [], 'accepted']);
    // Without the runner's word on the tool, the trace cannot tell: unchecked, saying why — not accepted.
    const unknown = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: 'yes' } }] });
    expect(unknown.errors).toEqual([]);
    expect(unknown.unchecked).toEqual([expect.objectContaining({ code: 'UNCHECKED', request: 'transferMoney#transfer-1' })]);
    expect(words(unknown.unchecked!)).toMatch(/^The resume data of transferMoney#transfer-1 is unchecked: transferMoney is recorded as a multipart tool .* genkit Go 1\.12\.0 records no resume type/);
    expect(resumeVerdictOf(unknown)).toBe('unchecked');
    // No field to convert (none, {}): any Go type takes it.
    expect(resumeVerdictOf(validateResume({ context, restart: [{ ...TRANSFER, resumed: {} }] }))).toBe('accepted');
    // A stable tool (multipart: false in the trace) reads a map: nothing is converted.
    const question = await pausedCall('go-respond-to-question');
    expect(resumeVerdictOf(validateResume({ context: question, restart: [{ name: 'askUser', ref: 'seat-1', resumed: { seat: 5 } }] }))).toBe('accepted');
  });

  it('a response part against the output schema the tool was offered with, in genkit Go’s words — and the typed tool’s envelope named', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const message = words(validateResume({ context, respond: [{ ...TRANSFER, output: { status: 'answered', to: 'Bob', amountUsd: 500 } }] }).errors);
    expect(message).toMatch(/^handleResumedToolRequest: tool "transferMoney" output validation failed: data did not match expected schema:\n- \(root\): Additional property status is not allowed\n- \(root\): Additional property to is not allowed\n- \(root\): Additional property amountUsd is not allowed\n/);
    expect(message).toMatch(/genkit Go 1\.12\.0: transferMoney is a typed tool \(genkit\/exp\); .* MultipartToolResponse envelope/);
    // A stable tool's own schema: a good answer passes.
    const question = await pausedCall('go-respond-to-question');
    expect(validateResume({ context: question, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }] }).errors).toEqual([]);
  });

  it('nothing answered is a warning (genkit Go 1.12.0 sends the model the request without a response); once anything is answered, an unanswered interrupt is refused in Go’s words', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const result = validateResume({ context });
    expect(result.errors).toEqual([]);
    expect(words(result.warnings)).toMatch(/transferMoney#transfer-1 is not answered, and nothing else is: genkit Go 1\.12\.0 does not treat that as a resume/);
    // The finished sibling needs no answer; the interrupted one does, once the resume answers anything.
    const parallel = await pausedCall('go-parallel-pending-output');
    expect(validateResume({ context: parallel }).errors).toEqual([]);
    const partial = validateResume({ context: parallel, respond: [{ name: 'transferMoney', ref: 'refund-9', output: {} }] });
    expect(partial.errors).toContainEqual({
      code: 'INVALID_ARGUMENT',
      request: 'transferMoney#refund-1',
      message: expect.stringMatching(/^unresolved tool request "#refund-1" was not handled by the Resume argument; you must supply Respond or Restart directives, or ensure there is pending output from a previous tool call — /),
    });
  });

  it('answers only to requests of the last model message; a restart without data and a new input are warned about', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(validateResume({ context, respond: [{ name: 'transferMoney', ref: 'transfer-9', output: {} }] }).errors).toContainEqual(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(words(validateResume({ context, restart: [TRANSFER] }).warnings)).toMatch(/restarted with no resume data(.|\n)*One or more tools triggered an interrupt during a restarted execution/);
    const replaced = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: true }, replaceInput: { to: 5 } }] });
    expect(words(replaced.errors)).toMatch(/new input of transferMoney#transfer-1 does not match the tool's input schema/);
    expect(words(replaced.warnings)).toMatch(/history the model sees keeps the original input — as genkit JS 1\.42's bug 2/);
  });

  it('one request answered twice is taken as genkit Go takes it (the response, never the restart), said as a warning; a finished sibling answered is refused', async () => {
    const context = await pausedCall('go-parallel-pending-output');
    const twice = validateResume({
      context,
      respond: [{ name: 'transferMoney', ref: 'refund-1', output: { output: { status: 'done', to: 'Ada Lovelace', amountUsd: 240 } } }],
      restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: 'not even checked' } }],
    });
    expect(twice.errors).toEqual([]);
    expect(resumeVerdictOf(twice)).toBe('accepted');
    expect(words(twice.warnings)).toMatch(/transferMoney#refund-1 is answered 2 times: genkit Go takes the first response part \(checked against the output schema\) and ignores the others, so transferMoney is not run again/);
    // …and the envelope it takes is what the model sees.
    expect(words(twice.warnings)).toMatch(/the model sees \{"output": …\} as the tool's output/);
    const sibling = validateResume({ context, respond: [{ name: 'lookupOrder', ref: 'order-1', output: {} }], restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }] });
    expect(words(sibling.errors)).toMatch(/^tool\.Respond: part is not an interrupted tool request — lookupOrder#order-1 was not interrupted \(it finished: its pendingOutput is reused\)/);
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
    const { DIALECTS } = await import('../../index');
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
