import path from 'node:path';
import { formatModelMessages } from '@ai-sdk/otel';
import { describe, expect, it } from 'vitest';
import type { AiSdkRecording } from './recording';
import { readReplayable } from '../../read-recording';
import { resumeContextFrom } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { APPROVAL_REQUEST_PART, APPROVAL_RESPONSE_PART } from './sdk-words';

/**
 * The history Loopscope rebuilds for a paused AI SDK call (resume-context.ts), checked against
 * what the recorded app really sent next: the answer built from the paused call's spans alone,
 * formatted as `@ai-sdk/otel` records `gen_ai.input.messages`, is the recorded input of the call
 * that answered it — every step of a paused call that ran tool rounds first included.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');
/**
 * Every fixture with an answering call, GenAI spans only (the legacy ones record the provider's
 * prompt) and the forged approval aside (its answer sent another input on purpose).
 */
const ANSWERED = ['ai-sdk-approval-approved', 'ai-sdk-approval-denied', 'ai-sdk-approval-policy', 'ai-sdk-handed-back-tool', 'ai-sdk-approvals-after-tool-rounds'];

type Formatted = { role: string; parts: { type: string }[] }[];

/** Each recorded answering call of a fixture: Loopscope's answer to the call it answers, and what the app sent, both formatted. */
async function answeringCalls(file: string): Promise<{ label: string; ours: Formatted; recorded: Formatted }[]> {
  const spans = await loadTraceFile(path.join(FIXTURES, file));
  const recording = readReplayable(spans).recording as AiSdkRecording;
  return recording.steps.flatMap((step) => {
    if (step.continues === undefined || !step.answers) return [];
    const parent = recording.steps[step.continues];
    const context = resumeContextFrom(spans.filter((span: Span) => span.traceId === parent.traceId));
    const validation = validateResume({
      context,
      approve: step.answers.flatMap((answer) => (answer.kind === 'approve' ? [{ name: answer.toolName, ref: answer.toolCallId }] : [])),
      deny: step.answers.flatMap((answer) => (answer.kind === 'deny' ? [{ name: answer.toolName, ref: answer.toolCallId, reason: answer.reason ?? '' }] : [])),
      respond: step.answers.flatMap((answer) => (answer.kind === 'result' ? [{ name: answer.toolName, ref: answer.toolCallId, output: answer.output }] : [])),
    });
    expect(validation.errors).toEqual([]);
    const root = spans.find((span) => span.traceId === step.traceId && span.spanId === step.spanId)!;
    return [{ label: step.label, ours: formatModelMessages({ prompt: undefined, messages: validation.payload.messages as never }) as Formatted, recorded: JSON.parse(root.attributes['gen_ai.input.messages'] as string) as Formatted }];
  });
}

/** The messages without the approval parts (GenAI spans record them bare, so a decided one cannot be sent again), empty messages dropped. */
const withoutApprovalParts = (messages: Formatted): Formatted =>
  messages.map((message) => ({ ...message, parts: message.parts.filter((part) => part.type !== APPROVAL_REQUEST_PART && part.type !== APPROVAL_RESPONSE_PART) })).filter((message) => message.parts.length > 0);

describe('the answer Loopscope builds from a paused AI SDK call is what the app sent next', () => {
  it.each(ANSWERED.filter((name) => name !== 'ai-sdk-approval-policy'))('%s: the first answering call’s recorded input, exactly', async (name) => {
    const [first] = await answeringCalls(`${name}.otlp.json`);
    expect(first.ours).toEqual(first.recorded);
  });

  it('tool rounds then a pause: the answer holds every round of the paused call, not its last step alone', async () => {
    const [first] = await answeringCalls('ai-sdk-approvals-after-tool-rounds.otlp.json');
    expect(first.ours.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it.each(ANSWERED)('%s: every answering call’s recorded input, but for the bare approval parts of calls decided earlier', async (name) => {
    const calls = await answeringCalls(`${name}.otlp.json`);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(withoutApprovalParts(call.ours), call.label).toEqual(withoutApprovalParts(call.recorded));
  });

  it('what those bare parts are: a policy’s own approval in the paused answer, and an approval answered by an earlier call', async () => {
    const count = (messages: Formatted) => messages.flatMap((message) => message.parts).filter((part) => part.type === APPROVAL_REQUEST_PART || part.type === APPROVAL_RESPONSE_PART).length;
    const [policy] = await answeringCalls('ai-sdk-approval-policy.otlp.json');
    expect([count(policy.ours), count(policy.recorded)]).toEqual([2, 4]);
    const [, again] = await answeringCalls('ai-sdk-approvals-after-tool-rounds.otlp.json');
    expect([count(again.ours), count(again.recorded)]).toEqual([2, 4]);
  });
});
