import path from 'node:path';
import type { ModelMessage } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AiSdkScenario, AiSdkScriptedResume } from '../../../contract/ai-sdk-scenario';
import type { ApproveAnswer, DenyAnswer, RespondAnswer } from '../../../contract/resume-answers';
import { resumeContextFrom } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { loadTraceFile } from '../../../store/load-trace-file';
import { loadScenarios } from '../../../runner/scenario';
import { loadAiSdkTools, type AiSdkToolCatalog } from './load-ai-sdk-tools';
import { runAiSdkCall, type AiSdkCallOutcome } from './run-ai-sdk-call';

/**
 * The answer Loopscope builds from a recorded trace, sent to the real `generateText`, behaves
 * as the answer the SDK's own flow builds (the app keeping `responseMessages` and appending
 * its `tool-approval-response` / `tool-result`): same tools run with the same results, same
 * text, same finish reason. Loopscope's side starts from the recorded spans only (the fixtures
 * of real runs); the SDK's side from the live result of the same first call.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__');
const SECRET = 'answer-payload-test-secret';
let catalog: AiSdkToolCatalog;
let scenarios: Map<string, AiSdkScenario>;

beforeAll(async () => {
  catalog = await loadAiSdkTools(path.join(process.cwd(), 'tools', 'ai-sdk'));
  const list = await loadScenarios(path.join(process.cwd(), 'tools', 'scenarios'));
  scenarios = new Map(list.scenarios.filter((scenario): scenario is AiSdkScenario => scenario.runtime === 'ai-sdk').map((scenario) => [scenario.name, scenario]));
});

/** The context of the recorded call that paused `pause` answers in (0: the first call). */
async function pausedContext(name: string, pause = 0) {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const roots = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
  return resumeContextFrom(spans.filter((span) => span.traceId === roots[pause].traceId));
}

type Execution = { id: string; input: unknown; output: unknown };

/** Every tool execution of the tools, as `{id, input, output}`: what the loop really ran. */
function recordingCatalog(): { catalog: AiSdkToolCatalog; executions: Execution[] } {
  const executions: Execution[] = [];
  const tools: AiSdkToolCatalog['tools'] = {};
  for (const [name, tool] of Object.entries(catalog.tools)) {
    const execute = (tool as { execute?: (input: unknown, options: { toolCallId: string }) => unknown }).execute;
    tools[name] = execute
      ? ({
          ...tool,
          execute: async (input: unknown, options: { toolCallId: string }) => {
            const output = await execute(input, options);
            executions.push({ id: options.toolCallId, input, output });
            return output;
          },
        } as typeof tool)
      : tool;
  }
  return { catalog: { ...catalog, tools }, executions };
}

/** What a call did, in terms both flows must agree on: the tools it ran, what the model saw of the answers, its text, how it ended. */
function behaviour(outcome: AiSdkCallOutcome | undefined, executions: Execution[]) {
  const results = (outcome?.messages ?? [])
    .flatMap((message: ModelMessage) => (message.role === 'tool' ? message.content : []))
    .filter((part) => part.type === 'tool-result')
    .map((part) => ({ id: part.toolCallId, output: part.output }));
  return { finishReason: outcome?.finishReason, text: outcome?.text, steps: outcome?.steps, executions, results, waiting: outcome?.interrupts.map((call) => `${call.kind} ${call.toolName}#${call.toolCallId}`) };
}

async function bothFlows(options: { scenario: string; scripted: AiSdkScriptedResume; ours: { approve?: ApproveAnswer[]; deny?: DenyAnswer[]; respond?: RespondAnswer[] }; pause?: number }) {
  const scenario = scenarios.get(options.scenario)!;
  const pause = options.pause ?? 0;
  // The SDK's own flow: the first call live (and the scenario's answers to the pauses before this one), then its messages with the scripted answers appended.
  let paused = await runAiSdkCall({ scenario, catalog, approvalSecret: SECRET });
  for (const answers of (scenario.resumes ?? []).slice(0, pause)) paused = await runAiSdkCall({ scenario, catalog, approvalSecret: SECRET, messages: paused.outcome!.messages, answers });
  const sdkHistory = paused.outcome!.messages;
  const sdkTools = recordingCatalog();
  const sdk = await runAiSdkCall({ scenario, catalog: sdkTools.catalog, approvalSecret: SECRET, messages: sdkHistory, answers: options.scripted });
  // Loopscope's: the recorded spans of the same first call, the answers checked, the payload sent as it is.
  const context = await pausedContext(options.scenario, pause);
  const validation = validateResume({ context, ...options.ours, signsApprovals: scenario.approvalSecret === true });
  expect(validation.errors).toEqual([]);
  const payload = validation.payload.messages as ModelMessage[];
  const ourTools = recordingCatalog();
  const ours = await runAiSdkCall({ scenario, catalog: ourTools.catalog, approvalSecret: SECRET, messages: payload });
  expect(sdk.failure).toBeUndefined();
  expect(ours.failure).toBeUndefined();
  return { sdk: behaviour(sdk.outcome, sdkTools.executions), ours: behaviour(ours.outcome, ourTools.executions) };
}

describe('the answer Loopscope builds from a trace behaves, in real generateText, as the one the SDK’s own flow builds', () => {
  it('approve: the approved tool runs with the recorded input and the model answers', async () => {
    const { sdk, ours } = await bothFlows({ scenario: 'ai-sdk-approval-approved', scripted: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1' }] }, ours: { approve: [{ name: 'transferMoney', ref: 'transfer-1' }] } });
    expect(ours).toEqual(sdk);
    expect(ours.executions).toEqual([{ id: 'transfer-1', input: { to: 'Bob', amountUsd: 500 }, output: expect.objectContaining({ status: 'sent' }) }]);
    expect(ours.finishReason).toBe('stop');
  });

  it('deny with a reason: nothing runs, the model is given the denial', async () => {
    const reason = 'Bob is not a known payee.';
    const { sdk, ours } = await bothFlows({ scenario: 'ai-sdk-approval-denied', scripted: { deny: [{ toolName: 'transferMoney', toolCallId: 'transfer-1', reason }] }, ours: { deny: [{ name: 'transferMoney', ref: 'transfer-1', reason }] } });
    expect(ours).toEqual(sdk);
    expect(ours.executions).toEqual([]);
    expect(ours.text).toContain('not');
  });

  it('respond for a handed-back tool: the model reads the caller’s result', async () => {
    const { sdk, ours } = await bothFlows({ scenario: 'ai-sdk-handed-back-tool', scripted: { respond: [{ toolName: 'askUser', toolCallId: 'ask-1', output: { answer: 'Window' } }] }, ours: { respond: [{ name: 'askUser', ref: 'ask-1', output: { answer: 'Window' } }] } });
    expect(ours).toEqual(sdk);
    expect(ours.text).toBe('Booked a window seat on the 9:40 to Porto.');
  });

  it('a policy that ran one call and held the other: the ran call’s result is kept, the held one runs on approval', async () => {
    const { sdk, ours } = await bothFlows({ scenario: 'ai-sdk-approval-policy', scripted: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-large' }] }, ours: { approve: [{ name: 'transferMoney', ref: 'transfer-large' }] } });
    expect(ours).toEqual(sdk);
    expect(ours.executions.map((execution) => execution.id)).toEqual(['transfer-large']);
  });

  it('tool rounds, then a pause: the answer holds every round; the model answers from all results once both approvals run', async () => {
    const bob = await bothFlows({ scenario: 'ai-sdk-approvals-after-tool-rounds', scripted: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-bob' }] }, ours: { approve: [{ name: 'transferMoney', ref: 'transfer-bob' }] } });
    expect(bob.ours).toEqual(bob.sdk);
    expect(bob.ours.executions.map((execution) => execution.id)).toEqual(['transfer-bob']);
    expect(bob.ours.waiting).toEqual(['approval transferMoney#transfer-dave']);
    const dave = await bothFlows({ scenario: 'ai-sdk-approvals-after-tool-rounds', pause: 1, scripted: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-dave' }] }, ours: { approve: [{ name: 'transferMoney', ref: 'transfer-dave' }] } });
    expect(dave.ours).toEqual(dave.sdk);
    expect(dave.ours.results.map((result) => result.id)).toEqual(['weather-1', 'convert-1', 'transfer-bob', 'transfer-dave']);
    expect(dave.ours.text).toBe('It is 75°F in Lisbon. Sent Bob 500 USD (TX-3500) and Dave 900 USD (TX-4900).');
  });

  it('a signed run: the runner signs the rebuilt request, and the SDK’s signature check passes', async () => {
    const { sdk, ours } = await bothFlows({ scenario: 'ai-sdk-signed-approval-forged', scripted: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-1' }] }, ours: { approve: [{ name: 'transferMoney', ref: 'transfer-1' }] } });
    expect(ours).toEqual(sdk);
    expect(ours.executions).toHaveLength(1);
  });

  it('without the signature the SDK refuses: what the runner’s signing is for', async () => {
    const scenario = scenarios.get('ai-sdk-signed-approval-forged')!;
    const context = await pausedContext('ai-sdk-signed-approval-forged');
    // The payload as checked, but the run holds another secret than the one it is signed with.
    const payload = validateResume({ context, approve: [{ name: 'transferMoney', ref: 'transfer-1' }] }).payload.messages as ModelMessage[];
    const { signApprovalRequests } = await import('./ai-sdk-answers');
    const signedElsewhere = await signApprovalRequests({ messages: payload, secret: 'another-apps-secret' });
    const refused = await runAiSdkCall({ scenario, catalog, approvalSecret: SECRET, messages: signedElsewhere });
    expect(refused.failure).toMatchObject({ name: 'AI_InvalidToolApprovalSignatureError', message: expect.stringMatching(/invalid signature/) });
  });
});
