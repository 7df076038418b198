import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import type { LocalToolFacts, ResumeContext } from '../../../loop/resume-model';

/** The AI SDK's answer rules, on paused calls of real AI SDK runs (the fixtures of scripts/fixtures/ai-sdk-fixtures.ts). */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');

/** The first trace of a fixture: the paused call. */
async function pausedCall(name: string): Promise<ResumeContext> {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return resumeContextFrom(spans.filter((span: Span) => span.traceId === first.traceId));
}

const TRANSFER = { name: 'transferMoney', ref: 'transfer-1' };
const ASK = { name: 'askUser', ref: 'ask-1' };
const local = (facts: Record<string, LocalToolFacts>) => new Map(Object.entries(facts));
const messagesOf = (errors: { message: string }[]) => errors.map((issue) => issue.message).join('\n');

describe('the paused call of an AI SDK trace, rebuilt', () => {
  it('an approval: the history of its last model call as the SDK’s model messages, the pending call, the offered tools', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    expect(context).toMatchObject({ dialect: 'ai-sdk', model: 'scripted/ai-sdk-approval-approved', callName: 'ai-sdk-approval-approved' });
    expect(context.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Send 500 USD to Bob.' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } }] },
    ]);
    expect(context.requests).toEqual([{ ...TRANSFER, input: { to: 'Bob', amountUsd: 500 }, state: 'interrupted' }]);
    expect(context.tools.map((tool) => tool.name)).toEqual(['transferMoney']);
    expect(context.tools[0].inputSchema).toMatchObject({ type: 'object', required: ['to', 'amountUsd'] });
  });

  it('a legacy (ai.generateText) paused call is found and rebuilt from ai.prompt.messages and ai.response.toolCalls', async () => {
    const context = await pausedCall('ai-sdk-approval-approved.legacy');
    expect(context.requests).toEqual([{ ...TRANSFER, input: { to: 'Bob', amountUsd: 500 }, state: 'interrupted' }]);
    expect(context.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } }] });
    expect(validateResume({ context, approve: [TRANSFER] }).errors).toEqual([]);
  });

  it('a recorded approval request (its id kept) is answered under that id, and says the call waits for an approval', async () => {
    const paused = await pausedCall('ai-sdk-approval-approved');
    const context = { ...paused, requests: paused.requests.map((request) => ({ ...request, waitingFor: 'approval' as const, approval: { approvalId: 'aitxt-recorded' } })) };
    const { errors, payload } = validateResume({ context, approve: [TRANSFER] });
    expect(errors).toEqual([]);
    expect(payload.messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'aitxt-recorded', approved: true }] });
  });

  it('a handed-back tool waits for a result: known from the local tool, which has no execute', async () => {
    const context = await pausedCall('ai-sdk-handed-back-tool');
    expect(context.requests[0]).toMatchObject({ ...ASK, state: 'interrupted' });
    expect(context.requests[0].waitingFor).toBeUndefined();
  });
});

describe('AI SDK answer rules, each named', () => {
  it('approve: the history gets the approval request and one tool message with the approval response', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    const { errors, warnings, payload } = validateResume({ context, approve: [{ ...TRANSFER, reason: 'known payee' }], localTools: local({ transferMoney: {} }) });
    expect({ errors, warnings }).toEqual({ errors: [], warnings: [] });
    expect(payload.resume).toBeUndefined();
    expect(payload.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'transfer-1', toolName: 'transferMoney', input: { to: 'Bob', amountUsd: 500 } },
          { type: 'tool-approval-request', approvalId: 'approval-transfer-1', toolCallId: 'transfer-1' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-transfer-1', approved: true, reason: 'known payee' }] },
    ]);
    // The context itself is not changed by building the payload.
    expect((context.messages[1] as { content: unknown[] }).content).toHaveLength(1);
  });

  it('deny: approved false with the reason the model will see', async () => {
    const context = await pausedCall('ai-sdk-approval-denied');
    const { errors, payload } = validateResume({ context, deny: [{ ...TRANSFER, reason: 'Bob is not a known payee.' }] });
    expect(errors).toEqual([]);
    expect(payload.messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-transfer-1', approved: false, reason: 'Bob is not a known payee.' }] });
  });

  it('respond: a tool-result with the JSON output, checked against the local tool’s output schema', async () => {
    const context = await pausedCall('ai-sdk-handed-back-tool');
    const localTools = local({ askUser: { handedBack: true, outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] } } });
    const good = validateResume({ context, respond: [{ ...ASK, output: { answer: 'Window' } }], localTools });
    expect(good.errors).toEqual([]);
    expect(good.payload.messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'ask-1', toolName: 'askUser', output: { type: 'json', value: { answer: 'Window' } } }] });
    const bad = validateResume({ context, respond: [{ ...ASK, output: { answer: 3 } }], localTools });
    expect(messagesOf(bad.errors)).toMatch(/The result for askUser#ask-1 does not match the tool's output schema: \/answer must be string/);
  });

  it('every pending call answered: an unanswered one is named with the SDK’s own error', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    const { errors } = validateResume({ context, localTools: local({ transferMoney: {} }) });
    expect(errors).toEqual([
      expect.objectContaining({ code: 'INVALID_ARGUMENT', request: 'transferMoney#transfer-1', message: expect.stringMatching(/not answered \(approve or deny it\).*AI_MissingToolResultsError: Tool result is missing for tool call transfer-1\./) }),
    ]);
  });

  it('exactly once: answered twice is refused, naming both answers', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    const { errors } = validateResume({ context, approve: [TRANSFER], deny: [TRANSFER] });
    expect(messagesOf(errors)).toMatch(/transferMoney#transfer-1 is answered 2 times \(approve, deny\)/);
  });

  it('answers only to pending calls: an unknown tool call id, a missing id, and a restart are refused', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    expect(validateResume({ context, approve: [TRANSFER, { name: 'transferMoney', ref: 'transfer-9' }] }).errors).toContainEqual(
      expect.objectContaining({ code: 'NOT_FOUND', message: 'The last assistant message has no tool call transferMoney#transfer-9 to approve.' }),
    );
    expect(messagesOf(validateResume({ context, approve: [{ name: 'transferMoney' }] }).errors)).toMatch(/Name the tool call id of the transferMoney call to approve/);
    expect(messagesOf(validateResume({ context, approve: [TRANSFER], restart: [{ ...TRANSFER }] }).errors)).toMatch(/The AI SDK has no restart/);
  });

  it('the kind of answer: approving a handed-back tool is refused; a result in place of an approval is a warning', async () => {
    const handed = await pausedCall('ai-sdk-handed-back-tool');
    const approved = validateResume({ context: handed, approve: [ASK], localTools: local({ askUser: { handedBack: true } }) });
    expect(messagesOf(approved.errors)).toMatch(/askUser#ask-1 is a handed-back tool \(no execute\), not an approval request/);
    const approval = await pausedCall('ai-sdk-approval-approved');
    const responded = validateResume({ context: approval, respond: [{ ...TRANSFER, output: { status: 'sent' } }], localTools: local({ transferMoney: {} }) });
    expect(responded.errors).toEqual([]);
    expect(messagesOf(responded.warnings)).toMatch(/asked for approval: a tool-result in its place is accepted by the AI SDK, but the tool never runs/);
  });

  it('a call that waits for nothing has nothing to answer', async () => {
    const context = await pausedCall('ai-sdk-approval-approved');
    const done = { ...context, requests: context.requests.map((request) => ({ ...request, state: 'done' as const })) };
    const { errors } = validateResume({ context: done, approve: [TRANSFER] });
    expect(messagesOf(errors)).toMatch(/This call waits for nothing/);
    expect(messagesOf(errors)).toMatch(/transferMoney#transfer-1 is not pending/);
  });

  it('signatures: a run that signs its approvals says the runner signs the rebuilt request; a recorded signature the run cannot check is a warning', async () => {
    const context = await pausedCall('ai-sdk-signed-approval-forged');
    const signed = validateResume({ context, approve: [TRANSFER], signsApprovals: true });
    expect(signed.errors).toEqual([]);
    expect(signed.payload.notes?.join(' ')).toMatch(/the runner signs each request .* AI_InvalidToolApprovalSignatureError/);
    const recorded = { ...context, requests: context.requests.map((request) => ({ ...request, approval: { approvalId: 'a-1', signature: 'sig' } })) };
    expect(messagesOf(validateResume({ context: recorded, approve: [TRANSFER] }).warnings)).toMatch(/was signed, but this run holds no approval secret/);
  });
});
