import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../../resume/resume-context';
import { resumeSnippet, validateResume } from '../../resume/validate-resume';
import { loadTraceFile } from '../../trace/load-trace-file';

/**
 * genkit Go's answer rules on the paused calls of real Go runs. What genkit Go itself does with
 * each broken answer is measured against the real module in
 * lib/runtime/genkit-go/go-scenarios.capture.test.ts ("genkit Go's own answer to broken parts").
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'dialects', 'genkit-go', '__fixtures__');
async function pausedCall(name: string) {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].filter((span) => span.name === 'generate' && !span.parentSpanId).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return resumeContextFrom(spans.filter((span) => span.traceId === first.traceId));
}
const words = (issues: { message: string }[]) => issues.map((issue) => issue.message).join('\n');
const TRANSFER = { name: 'transferMoney', ref: 'transfer-1' };

describe('the paused genkit Go call, rebuilt', () => {
  it('its history, its interrupted request with the interrupt data, its tools — and the model from its model span (Go records none in the input)', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(context).toMatchObject({ dialect: 'genkit-go', model: 'scripted/go-restart-after-approval' });
    expect(context.requests).toEqual([{ ...TRANSFER, input: { to: 'Bob', amountUsd: 500 }, state: 'interrupted', interruptMetadata: { reason: 'approval-required', limitUsd: 100, amountUsd: 500 } }]);
    expect(context.tools.map((tool) => tool.name)).toEqual(['transferMoney']);
    expect(context.tools[0].outputSchema).toMatchObject({ required: ['status', 'to', 'amountUsd'] });
  });
});

describe('genkit Go answer rules, each named', () => {
  it('a restart with object resumed data is accepted; the payload is the parts ToolDef.Restart builds, and the snippet is Go', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const result = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: true, approvedBy: 'dana' } }] });
    expect(result.errors).toEqual([]);
    expect(result.payload.resume!.restart).toEqual([{ toolRequest: { ...TRANSFER, input: { to: 'Bob', amountUsd: 500 } }, metadata: { resumed: { approved: true, approvedBy: 'dana' } } }]);
    const snippet = resumeSnippet({ context, payload: result.payload });
    expect(snippet).toContain('ai.WithToolRestarts(');
    expect(snippet).toContain('transferMoney.Restart(interrupted(resp, "transferMoney", "transfer-1"), &ai.RestartOptions{ResumedMetadata: map[string]any{');
    expect(snippet).toContain('"approvedBy": "dana",');
  });

  it('resumed data that is not an object is refused: ToolContext.Resumed is map[string]any', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(words(validateResume({ context, restart: [{ ...TRANSFER, resumed: 'yes' }] }).errors)).toMatch(/must be a JSON object: genkit Go's ToolContext.Resumed is map\[string\]any, and "yes" never reaches the tool/);
  });

  it('a response part against the output schema, in genkit Go’s words', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(words(validateResume({ context, respond: [{ ...TRANSFER, output: { status: 5 } }] }).errors)).toMatch(/handleResumedToolRequest: tool "transferMoney" output validation failed: /);
  });

  it('an unanswered interrupt is a warning: genkit Go 1.4.0 sends the model the request without a response (genkit JS refuses)', async () => {
    const context = await pausedCall('go-restart-after-approval');
    const result = validateResume({ context });
    expect(result.errors).toEqual([]);
    expect(words(result.warnings)).toMatch(/transferMoney#transfer-1 is not answered, and genkit Go 1\.4\.0 does not refuse that/);
  });

  it('answers only to requests of the last model message; a restart without data and a new input are warned about', async () => {
    const context = await pausedCall('go-restart-after-approval');
    expect(validateResume({ context, respond: [{ name: 'transferMoney', ref: 'transfer-9', output: {} }] }).errors).toContainEqual(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(words(validateResume({ context, restart: [TRANSFER] }).warnings)).toMatch(/restarted with no resumed data(.|\n)*One or more tools triggered an interrupt during a restarted execution/);
    const replaced = validateResume({ context, restart: [{ ...TRANSFER, resumed: { approved: true }, replaceInput: { to: 5 } }] });
    expect(words(replaced.errors)).toMatch(/new input of transferMoney#transfer-1 does not match the tool's input schema/);
    expect(words(replaced.warnings)).toMatch(/keeps the original input and records no replacedInput/);
  });

  it('a finished sibling answered anyway, and one request answered twice, are warnings saying what genkit Go does', async () => {
    const context = await pausedCall('go-parallel-pending-output');
    const result = validateResume({
      context,
      respond: [{ name: 'transferMoney', ref: 'refund-1', output: { status: 'done', to: 'Ada Lovelace', amountUsd: 240 } }],
      restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }],
    });
    expect(words(result.warnings)).toMatch(/answered 2 times: genkit Go takes the response part and ignores the restart/);
    expect(words(validateResume({ context, respond: [{ name: 'lookupOrder', ref: 'order-1', output: {} }], restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }] }).warnings)).toMatch(/lookupOrder#order-1 was not interrupted/);
  });
});
