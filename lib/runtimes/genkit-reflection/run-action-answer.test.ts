import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunActionAnswer } from './run-action-answer';

/** The ad-hoc run of the interrupting bookHotel, as genkit Go 1.12 and Python 0.12 answered it (recorded fixtures). */
const adHoc = (runtime: 'go' | 'python') => JSON.parse(readFileSync(path.join(process.cwd(), 'lib', 'runtimes', `genkit-${runtime}`, '__fixtures__', 'attach-interrupt-resume.json'), 'utf8')).adHocInterrupt.reply;

describe('readRunActionAnswer: a tool run alone that interrupts', () => {
  it('genkit Go: code 13 "tool execution interrupted: <data>" is an interrupt, with the data', () => {
    const reply = adHoc('go');
    const answer = readRunActionAnswer({ body: { error: reply.error }, headerTraceId: reply.traceIdHeader });
    expect(answer).toMatchObject({ outcome: 'interrupted', traceId: reply.traceIdHeader, error: { code: 'INTERRUPTED', message: 'The tool interrupted with { "priceUsd": 240, "reason": "confirm-price" }.' } });
    expect(answer.note).toContain('genkit Go');
  });

  it('genkit Python: code 13 "Error while running action bookHotel: Interrupt()" is an interrupt (the data is on the span)', () => {
    const reply = adHoc('python');
    const answer = readRunActionAnswer({ body: { error: reply.error }, headerTraceId: reply.traceIdHeader });
    expect(answer).toMatchObject({ outcome: 'interrupted', error: { code: 'INTERRUPTED' } });
    expect(answer.note).toContain('genkit:metadata:interrupt');
  });

  it('another code with the same words stays an error', () => {
    expect(readRunActionAnswer({ body: { error: { code: 3, message: 'tool execution interrupted: x' } } }).outcome).toBe('error');
  });
});
