import { describe, expect, it } from 'vitest';
import { TraceSourceSchema } from './trace-source';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

function refusal(value: unknown): { path: string; message: string } | undefined {
  const result = TraceSourceSchema.safeParse(value);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  return { path: issue.path.join('.'), message: issue.message };
}

describe('TraceSourceSchema', () => {
  it('accepts captured traces or a saved file', () => {
    expect(TraceSourceSchema.parse({ traceIds: [TRACE] })).toEqual({ traceIds: [TRACE] });
    expect(TraceSourceSchema.parse({ file: 'restart-after-approval.json' })).toEqual({ file: 'restart-after-approval.json' });
  });

  it('names the broken field of the branch that was meant', () => {
    expect(refusal({ traceIds: ['nope'] })).toEqual({ path: 'traceIds.0', message: 'a trace id is 32 lowercase hex characters' });
    expect(refusal({ traceIds: [] })).toEqual({ path: 'traceIds', message: 'name at least one trace' });
    expect(refusal({ traceIds: Array.from({ length: 51 }, () => TRACE) })).toEqual({ path: 'traceIds', message: 'at most 50 traces' });
    expect(refusal({ file: '' })).toEqual({ path: 'file', message: 'name the saved file' });
    expect(refusal({ file: 'x'.repeat(201) })).toEqual({ path: 'file', message: 'a saved file name has at most 200 characters' });
  });

  it('says what a source looks like when it is neither', () => {
    for (const value of [{}, 'traces/x.json', null, { trace: TRACE }]) {
      expect(refusal(value)).toEqual({ path: '', message: 'expected {"traceIds": [trace ids]} or {"file": "<saved file name>"}' });
    }
  });
});
