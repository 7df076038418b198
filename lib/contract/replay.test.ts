import { describe, expect, it } from 'vitest';
import { ReplayRequestSchema } from './replay';

const KEY = '0af7651916cd43dd8448eb211c80319c:b7ad6b7169203331';

describe('ReplayRequestSchema', () => {
  it('defaults to a strict replay with recorded tools', () => {
    expect(ReplayRequestSchema.parse({ source: { file: 'plain-tool-round.json' } })).toEqual({ source: { file: 'plain-tool-round.json' }, liveTools: false, mode: 'strict' });
  });

  it('accepts a fork of a tool output or of a model message, keeping the message’s other fields', () => {
    const tool = ReplayRequestSchema.parse({ source: { file: 'a.json' }, fork: { kind: 'tool', span: KEY, output: { ok: true } } });
    expect(tool.fork).toEqual({ kind: 'tool', span: KEY, output: { ok: true } });
    const model = ReplayRequestSchema.parse({ source: { file: 'a.json' }, fork: { kind: 'model', span: KEY, message: { role: 'model', content: [{ text: 'hi' }], metadata: { x: 1 } } } });
    expect(model.fork).toEqual({ kind: 'model', span: KEY, message: { role: 'model', content: [{ text: 'hi' }], metadata: { x: 1 } } });
  });

  it('refuses a fork that names no recorded call, a model message without parts, and an unknown mode', () => {
    const first = (value: unknown) => {
      const result = ReplayRequestSchema.safeParse(value);
      return result.success ? undefined : { path: result.error.issues[0].path.join('.'), message: result.error.issues[0].message };
    };
    expect(first({ source: { file: 'a.json' }, fork: { kind: 'tool', span: 'model call 2', output: 1 } })).toEqual({
      path: 'fork.span',
      message: 'a recorded call is named traceId:spanId (32 and 16 lowercase hex characters)',
    });
    expect(first({ source: { file: 'a.json' }, fork: { kind: 'model', span: KEY, message: { role: 'model', content: [] } } })).toEqual({
      path: 'fork.message.content',
      message: 'the message needs at least one part',
    });
    expect(first({ source: { file: 'a.json' }, mode: 'loose' })?.path).toBe('mode');
  });
});
