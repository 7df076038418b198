import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReplayable } from '../../read-recording';
import type { AiSdkRecording } from './recording';
import { loadTraceFile } from '../../../store/load-trace-file';

const load = async (name: string): Promise<AiSdkRecording> => {
  const read = readReplayable(await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', `${name}.otlp.json`)));
  if (read.runtime !== 'ai-sdk') throw new Error(`expected an AI SDK recording, got ${read.runtime}`);
  return read.recording as AiSdkRecording;
};

describe('readAiSdkRecording: a paused call and its answer, linked across traces', () => {
  it('GenAI spans: two calls in order, the answer continuing the first with an approval', async () => {
    const recording = await load('ai-sdk-approval-approved');
    expect(recording.steps.map((step) => [step.label, step.outcome.kind, step.continues])).toEqual([
      ['call 1', 'interrupted', undefined],
      ['call 2 (answer)', 'finished', 0],
    ]);
    expect(recording.steps[1].answers).toEqual([{ kind: 'approve', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } }]);
    expect(recording.approvals.get('transfer-1')).toEqual({ type: 'user-approval' });
    // The approved run before step 1 of the answer is its tool execution.
    expect(recording.steps[1].toolExecutions.map((execution) => [execution.name, execution.outcome.kind])).toEqual([['transferMoney', 'output']]);
    expect(recording.tools.get('transferMoney')).toMatchObject({ type: 'function', execute: true, description: 'Sends money to a person. Needs approval.' });
  });

  it('GenAI messages are rebuilt as ModelMessages, the bare approval parts paired with made-up ids', async () => {
    const [, answer] = (await load('ai-sdk-approval-approved')).steps;
    expect(answer.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Send 500 USD to Bob.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } },
          { type: 'tool-approval-request', approvalId: 'approval-transfer-1', toolCallId: 'transfer-1' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-transfer-1', approved: true }] },
    ]);
  });

  it('legacy spans: the same chain, the approved run read from what the model was sent (no ai.toolCall span)', async () => {
    const recording = await load('ai-sdk-approval-approved.legacy');
    expect(recording.steps.map((step) => [step.source, step.outcome.kind, step.continues])).toEqual([
      ['legacy', 'interrupted', undefined],
      ['legacy', 'finished', 0],
    ]);
    expect(recording.steps[1].toolExecutions).toEqual([expect.objectContaining({ name: 'transferMoney', spanId: recording.steps[1].spanId, outcome: { kind: 'output', output: expect.objectContaining({ status: 'sent' }) } })]);
    // The provider prompt as recorded: what a replayed model call is compared with.
    expect(recording.steps[0].modelCalls[0].request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Send 500 USD to Bob.' }] }]);
  });

  it('a policy: the call it approved is told from the one that waited by the approval requests in the history', async () => {
    const recording = await load('ai-sdk-approval-policy');
    expect(Object.fromEntries(recording.approvals)).toEqual({ 'transfer-small': { type: 'approved' }, 'transfer-large': { type: 'user-approval' } });
  });

  it('a handed-back tool has no execute; the caller result is the answer', async () => {
    const recording = await load('ai-sdk-handed-back-tool');
    expect(recording.tools.get('askUser')?.execute).toBe(false);
    expect(recording.steps[1].answers).toEqual([{ kind: 'result', toolCallId: 'ask-1', toolName: 'askUser', output: { answer: 'Window' } }]);
  });

  it('a denial keeps its reason; a forged signed approval marks the recording as signed', async () => {
    expect((await load('ai-sdk-approval-denied')).steps[1].answers).toEqual([{ kind: 'deny', toolCallId: 'transfer-1', toolName: 'transferMoney', reason: 'Bob is not a known payee.' }]);
    const forged = await load('ai-sdk-signed-approval-forged');
    expect(forged.signedApprovals).toBe(true);
    // The answer failed before resolving anything: its approval is read from the call that waited for one, with the forged input it sent.
    expect(forged.steps[1].answers).toEqual([expect.objectContaining({ kind: 'approve', toolCallId: 'transfer-1' })]);
    expect((await load('ai-sdk-approval-denied')).signedApprovals).toBe(false);
  });

  it('step limits, refused inputs and provider tools are read as the settings to replay with', async () => {
    expect((await load('ai-sdk-step-limit')).steps[0].maxSteps).toBe(2);
    expect((await load('ai-sdk-plain-tool-round')).steps[0].maxSteps).toBe(3);
    const refused = (await load('ai-sdk-invalid-tool-input')).steps[0].invalidInputs;
    expect(refused.getWeather).toEqual([{ input: { city: 42 }, message: expect.stringMatching(/^\[\n {2}\{\n {4}"expected": "string"/) }]);
    expect((await load('ai-sdk-provider-executed-tool')).tools.get('webSearch')).toMatchObject({ type: 'provider', providerId: 'loopscope-scripted.web_search', execute: false });
    // The provider-executed call is part of the model's answer, not a tool run to stub.
    const [step] = (await load('ai-sdk-provider-executed-tool')).steps;
    expect(step.toolExecutions).toEqual([]);
    expect(step.modelCalls[0].response?.content.map((part) => part.type)).toEqual(['text', 'tool-call', 'tool-result']);
  });
});
