import { describe, expect, it } from 'vitest';
import { ResumeAnswersSchema, ResumeFromTraceSchema, RunResumeRequestSchema } from './resume-answers';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

function refusal(schema: { safeParse: (value: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const [issue] = result.error!.issues;
  return { path: issue.path.join('.'), message: issue.message };
}

describe('resume answers', () => {
  it('accepts respond and restart parts, with or without ref, and fills in empty lists for a workbench body', () => {
    const body = ResumeFromTraceSchema.parse({ source: { traceIds: [TRACE] }, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }] });
    expect(body).toEqual({ source: { traceIds: [TRACE] }, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Window' } }], restart: [] });
    expect(ResumeAnswersSchema.parse({ restart: [{ name: 'transferMoney', resumed: { approved: true }, replaceInput: { amountUsd: 5 } }] })).toEqual({
      restart: [{ name: 'transferMoney', resumed: { approved: true }, replaceInput: { amountUsd: 5 } }],
    });
    expect(RunResumeRequestSchema.parse({})).toEqual({});
  });

  it('refuses an answer without a tool name, a bad span id and too many answers, naming each', () => {
    expect(refusal(ResumeAnswersSchema, { respond: [{ name: '', output: 1 }] })).toEqual({ path: 'respond.0.name', message: 'name the tool' });
    expect(refusal(ResumeFromTraceSchema, { source: { traceIds: [TRACE] }, generateSpanId: 'x' })).toEqual({ path: 'generateSpanId', message: 'a span id is 16 lowercase hex characters' });
    const many = Array.from({ length: 101 }, () => ({ name: 'askUser', output: 1 }));
    expect(refusal(ResumeFromTraceSchema, { source: { traceIds: [TRACE] }, respond: many })).toEqual({ path: 'respond', message: 'at most 100 answers' });
    expect(refusal(RunResumeRequestSchema, { resume: { restart: [{ ref: 'a' }] } })?.path).toBe('resume.restart.0.name');
  });

  it('refuses a body without a source', () => {
    expect(refusal(ResumeFromTraceSchema, { respond: [] })?.path).toBe('source');
  });
});
