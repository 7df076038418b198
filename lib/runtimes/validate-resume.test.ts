import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { resumeContextFrom } from './resume-context';
import { validateResume } from './validate-resume';

const example = (name: string) => loadTraceFile(path.join(process.cwd(), 'traces', `${name}.json`));
const fixture = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));

/** The first trace of a file: the interrupted generate before any resume. */
async function firstTrace(spans: Promise<Span[]>): Promise<Span[]> {
  const all = await spans;
  const root = all.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return all.filter((span) => span.traceId === root.traceId);
}

describe('resumeContextFrom', () => {
  it('rebuilds the exact history (ending with the interrupted model message) and the tool schemas', async () => {
    const context = resumeContextFrom(await firstTrace(example('respond-to-question')));
    expect(context.messages.at(-1)).toMatchObject({ role: 'model' });
    expect(context.messages[0]).toMatchObject({ role: 'user' });
    expect(context.requests).toEqual([expect.objectContaining({ name: 'askUser', ref: 'seat-1', state: 'interrupted', interruptMetadata: { kind: 'question', choiceCount: 2 } })]);
    expect(context.tools.find((tool) => tool.name === 'askUser')?.outputSchema).toMatchObject({ required: ['answer'] });
  });

  it('works on copies: changing the context never changes the loaded spans', async () => {
    const spans = await firstTrace(example('respond-to-question'));
    const before = JSON.stringify(spans);
    const context = resumeContextFrom(spans);
    (context.messages.at(-1) as { content: unknown[] }).content.length = 0;
    expect(JSON.stringify(spans)).toBe(before);
    expect(resumeContextFrom(spans).requests).toHaveLength(1);
  });

  it('tells interrupted from pendingOutput requests', async () => {
    const context = resumeContextFrom(await firstTrace(example('parallel-pending-output')));
    expect(context.requests.map((request) => [request.name, request.state])).toEqual([
      ['lookupOrder', 'pending'],
      ['transferMoney', 'interrupted'],
    ]);
  });

  it('refuses spans without an interrupted generate', async () => {
    const spans = await example('plain-tool-round');
    expect(() => resumeContextFrom(spans)).toThrow(/no interrupted generate/);
  });
});

describe('validateResume', () => {
  let respondContext: ReturnType<typeof resumeContextFrom>;
  let pendingContext: ReturnType<typeof resumeContextFrom>;
  beforeAll(async () => {
    respondContext = resumeContextFrom(await firstTrace(example('respond-to-question')));
    pendingContext = resumeContextFrom(await firstTrace(example('parallel-pending-output')));
  });

  it('accepts a respond that matches the output schema, with genkit’s respond part in the payload', () => {
    const result = validateResume({ context: respondContext, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Aisle' } }] });
    expect(result.errors).toEqual([]);
    expect(result.payload.resume!.respond).toEqual([{ toolResponse: { name: 'askUser', ref: 'seat-1', output: { answer: 'Aisle' } }, metadata: { interruptResponse: true } }]);
    expect(result.payload.messages).toEqual(respondContext.messages);
  });

  it('names an unanswered interrupt with genkit’s own INVALID_ARGUMENT message', () => {
    const result = validateResume({ context: pendingContext });
    expect(result.errors).toEqual([
      {
        code: 'INVALID_ARGUMENT',
        request: 'transferMoney#refund-1',
        message: "Unresolved tool request 'transferMoney#refund-1' was not handled by the 'resume' argument. You must supply replies or restarts for all interrupted tool requests.",
      },
    ]);
  });

  it('refuses an output that breaks the output schema, an answer to nothing, and a double answer', () => {
    const result = validateResume({
      context: respondContext,
      respond: [
        { name: 'askUser', ref: 'seat-1', output: { answer: 5 } },
        { name: 'askUser', ref: 'seat-9', output: { answer: 'x' } },
      ],
      restart: [{ name: 'askUser', ref: 'seat-1' }],
    });
    const messages = result.errors.map((issue) => `${issue.code} ${issue.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/INVALID_ARGUMENT Respond output for askUser#seat-1 does not match the tool's output schema: \/answer must be string/));
    expect(messages).toContainEqual(expect.stringMatching(/NOT_FOUND The last model message has no tool request askUser#seat-9/));
    expect(messages).toContainEqual(expect.stringMatching(/askUser#seat-1 is answered 2 times/));
  });

  it('warns that an answer to a pendingOutput request is ignored, and accepts the restart of the interrupt', () => {
    const result = validateResume({
      context: pendingContext,
      restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true } }],
      respond: [{ name: 'lookupOrder', ref: 'order-1', output: { orderId: 'A-17', customer: 'x', totalUsd: 1 } }],
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((issue) => issue.message)).toContainEqual(expect.stringMatching(/lookupOrder#order-1 already finished .* genkit ignores this answer/));
  });

  it('checks replaceInput against the input schema and warns about genkit 1.42 bug 2', () => {
    const bad = validateResume({ context: pendingContext, restart: [{ name: 'transferMoney', ref: 'refund-1', replaceInput: { to: 'Ada', amountUsd: 'lots' } }] });
    expect(bad.errors.map((issue) => issue.message)).toContainEqual(expect.stringMatching(/replaceInput for transferMoney#refund-1 does not match the tool's input schema: \/amountUsd must be number/));
    const good = validateResume({ context: pendingContext, restart: [{ name: 'transferMoney', ref: 'refund-1', replaceInput: { to: 'Ada', amountUsd: 50 } }] });
    expect(good.errors).toEqual([]);
    expect(good.warnings.map((issue) => issue.message).join()).toMatch(/bug 2/);
    expect(good.payload.resume!.restart[0]).toMatchObject({ toolRequest: { input: { to: 'Ada', amountUsd: 50 } }, metadata: { replacedInput: { to: 'Ada Lovelace', amountUsd: 240 } } });
  });

  it('warns before restarting a respond-only tool (it would interrupt again: bug 1)', () => {
    const result = validateResume({ context: respondContext, restart: [{ name: 'askUser', ref: 'seat-1' }], localTools: new Map([['askUser', { restartable: false }]]) });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((issue) => issue.message).join()).toMatch(/respond-only.*bug 1/);
  });

  it('warns about two ref-less interrupts of one tool (bug 4)', async () => {
    const context = resumeContextFrom(await firstTrace(fixture('bug4-no-ref')));
    const result = validateResume({ context, respond: [{ name: 'askApproval', output: { approved: true, by: 'a' } }] });
    expect(result.warnings.map((issue) => issue.message).join()).toMatch(/bug 4/);
  });
});
