import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../graph/build-run-graph';
import { renderGraphText } from '../../../graph/render-graph-text';
import type { GraphSummary, RunGraph, ToolCall } from '../../../graph/run-graph';
import { loadTraceFile } from '../../../store/load-trace-file';

/**
 * The AI SDK fixtures are real ai@7 runs (lib/runtimes/ai-sdk/__fixtures__/README.md): each
 * summary is asserted whole, field by field, and each fixture's own case (a pause, its answer,
 * the SDK's words for a call's state) below.
 */
const load = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'ai-sdk', '__fixtures__', `${name}.otlp.json`));
const graphOf = async (name: string): Promise<RunGraph> => buildRunGraph(await load(name));
const toolCalls = (graph: RunGraph): ToolCall[] => graph.generates.flatMap((generate) => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)]);

type Row = [traces: number, generates: number, modelCalls: number, toolCalls: number, interrupts: number, responds: number, restarts: number, pendingReused: number, errors: number, finishReason: string | null];
const EXPECTED: Record<string, Row> = {
  'ai-sdk-plain-tool-round': [1, 1, 2, 2, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-approval-approved': [2, 2, 2, 1, 1, 0, 1, 0, 0, 'stop'],
  'ai-sdk-approval-approved.legacy': [2, 2, 2, 0, 1, 0, 1, 0, 0, 'stop'],
  'ai-sdk-approval-denied': [2, 2, 2, 0, 1, 1, 0, 0, 0, 'stop'],
  'ai-sdk-approval-policy': [2, 2, 2, 2, 1, 0, 1, 0, 0, 'stop'],
  'ai-sdk-signed-approval-forged': [2, 2, 1, 0, 1, 0, 0, 0, 1, 'error'],
  'ai-sdk-handed-back-tool': [2, 2, 2, 0, 1, 1, 0, 0, 0, 'stop'],
  'ai-sdk-dynamic-tool': [1, 1, 2, 1, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-provider-executed-tool': [1, 1, 1, 1, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-unknown-tool': [1, 1, 2, 0, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-invalid-tool-input': [1, 1, 2, 0, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-repair-tool-call': [1, 1, 2, 1, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-tool-throws': [1, 1, 2, 1, 0, 0, 0, 0, 0, 'stop'],
  'ai-sdk-step-limit': [1, 1, 2, 2, 0, 0, 0, 0, 0, 'tool-calls'],
  'ai-sdk-approvals-after-tool-rounds': [3, 3, 5, 4, 2, 0, 2, 0, 0, 'stop'],
};

function toSummary(row: Row): GraphSummary {
  const [traces, generates, modelCalls, toolCalls, interrupts, responds, restarts, pendingReused, errors, finishReason] = row;
  return { traces, generates, modelCalls, toolCalls, interrupts, responds, restarts, pendingReused, errors, finishReason };
}

describe('Graph JSON summary of every AI SDK fixture', () => {
  for (const [name, row] of Object.entries(EXPECTED)) {
    it(name, async () => {
      expect((await graphOf(name)).summary).toStrictEqual(toSummary(row));
    });
  }
});

describe('a call waiting for an answer is a pause, linked to its answer by tool call id', () => {
  for (const name of ['ai-sdk-approval-approved', 'ai-sdk-approval-approved.legacy', 'ai-sdk-approval-denied', 'ai-sdk-handed-back-tool', 'ai-sdk-approval-policy', 'ai-sdk-signed-approval-forged']) {
    it(`${name}: call 1 pauses (never an error), call 2 answers it`, async () => {
      const graph = await graphOf(name);
      const [paused, answer] = graph.generates;
      expect(paused.traceId).not.toBe(answer.traceId);
      expect(paused.status).toBe('interrupted');
      expect(paused.finishReason).toBe('tool-calls');
      const pending = paused.turns.at(-1)!.toolCalls.filter((call) => call.status === 'interrupted');
      expect(pending).toHaveLength(1);
      expect(pending[0].interrupt?.evidence).toBe('message');
      expect(paused.pendingInterrupts).toEqual([{ name: pending[0].name, ref: pending[0].ref, input: pending[0].input }]);
      expect(graph.nodes.find((node) => node.id === pending[0].id)).toMatchObject({ kind: 'tool-interrupt', tone: 'interrupted' });
      expect(answer.resume?.answersGenerateId).toBe(paused.id);
      const resolution = answer.resume!.resolutions.find((candidate) => candidate.request.ref === pending[0].ref)!;
      expect(resolution.answersToolCallId).toBe(pending[0].id);
      expect(pending[0].resolvedBy).toEqual([{ generateId: answer.id, kind: resolution.kind, nodeId: resolution.id }]);
      expect(graph.edges.filter((edge) => edge.kind === 'answer').map((edge) => [edge.source, edge.target])).toEqual([[pending[0].id, resolution.id]]);
    });
  }

  it('approved: the tool runs in the answer, under invoke_agent before step 1 — a restart with its span', async () => {
    const graph = await graphOf('ai-sdk-approval-approved');
    const answer = graph.generates[1];
    expect(answer.resume?.evidence).toBe('history');
    expect(answer.resumeToolCalls.map((call) => [call.name, call.ref, call.status])).toEqual([['transferMoney', 'transfer-1', 'ok']]);
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'restart', words: 'approved — the tool ran', restartedToolCallId: answer.resumeToolCalls[0].id }]);
    expect(graph.generates[0].turns[0].toolCalls[0].interrupt?.metadata).toMatchObject({ waitingFor: 'an approval' });
  });

  it('approved through the legacy spans: no tool span, the recorded approval says approved', async () => {
    const answer = (await graphOf('ai-sdk-approval-approved.legacy')).generates[1];
    expect(answer.resumeToolCalls).toEqual([]);
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'restart', words: 'approved — the tool ran (no tool span recorded)' }]);
    expect(answer.resume?.resolutions[0].restartedToolCallId).toBeUndefined();
  });

  it('denied: a respond whose output is the denial the model sees, reason kept', async () => {
    const answer = (await graphOf('ai-sdk-approval-denied')).generates[1];
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'respond', output: { denied: true, reason: 'Bob is not a known payee.' }, words: 'denied: Bob is not a known payee. (the model sees the denial)' }]);
    expect(answer.text).toContain('refused');
  });

  it('handed back: the caller’s tool result is a respond; the pause then says what it waited for', async () => {
    const graph = await graphOf('ai-sdk-handed-back-tool');
    expect(graph.generates[1].resume?.resolutions).toMatchObject([{ kind: 'respond', output: { answer: 'Window' }, words: 'answered by the caller (tool-result)' }]);
    expect(graph.generates[0].turns[0].toolCalls[0].interrupt?.metadata).toMatchObject({ waitingFor: expect.stringContaining('handed back') });
  });

  it('policy: the small transfer ran in call 1 and is no answer of call 2; the large one waits and is approved', async () => {
    const graph = await graphOf('ai-sdk-approval-policy');
    const [paused, answer] = graph.generates;
    expect(paused.turns[0].toolCalls.map((call) => [call.ref, call.status])).toEqual([
      ['transfer-small', 'ok'],
      ['transfer-large', 'interrupted'],
    ]);
    expect(answer.resume?.resolutions.map((resolution) => [resolution.request.ref, resolution.kind])).toEqual([['transfer-large', 'restart']]);
    expect(paused.turns[0].toolCalls[0].resolvedBy).toEqual([]);
  });

  it('forged signed approval: the answer fails before running anything; the changed input is named', async () => {
    const graph = await graphOf('ai-sdk-signed-approval-forged');
    const answer = graph.generates[1];
    expect(answer).toMatchObject({ status: 'error', errorStatus: 'AI_InvalidToolApprovalSignatureError' });
    expect(answer.errorMessage).toContain('signature verification failed');
    // The forged history asks for another input under the same tool call id: only the id ties them.
    expect(answer.resume?.evidence).toBe('requests');
    expect(answer.resume?.resolutions).toMatchObject([{ kind: 'unresolved', words: 'approval not applied: the answering call failed first (AI_InvalidToolApprovalSignatureError)' }]);
    expect(answer.notes.join(' ')).toContain('"to":"Mallory"');
    expect(graph.nodes.some((node) => node.kind === 'failure' && node.label === 'AI_InvalidToolApprovalSignatureError')).toBe(true);
  });

  it('tool rounds, then approvals in a row: each call pauses after its rounds, the next answers it and runs the approved tool first', async () => {
    const graph = await graphOf('ai-sdk-approvals-after-tool-rounds');
    const [first, second, third] = graph.generates;
    expect(first.turns.map((turn) => turn.toolCalls.map((call) => [call.ref, call.status]))).toEqual([[['weather-1', 'ok']], [['convert-1', 'ok']], [['transfer-bob', 'interrupted']]]);
    expect([second.resume?.answersGenerateId, third.resume?.answersGenerateId]).toEqual([first.id, second.id]);
    expect([second, third].map((answer) => answer.resumeToolCalls.map((call) => [call.ref, call.status]))).toEqual([[['transfer-bob', 'ok']], [['transfer-dave', 'ok']]]);
    expect(second.pendingInterrupts.map((request) => request.ref)).toEqual(['transfer-dave']);
    expect(third.text).toBe('It is 75°F in Lisbon. Sent Bob 500 USD (TX-3500) and Dave 900 USD (TX-4900).');
  });

  it('the paused call alone is still a pause, waiting (its answer not loaded)', async () => {
    const spans = await load('ai-sdk-approval-approved');
    const [first] = buildRunGraph(spans).generates;
    const graph = buildRunGraph(spans.filter((span) => span.traceId === first.traceId));
    expect(graph.summary).toMatchObject({ generates: 1, interrupts: 1, errors: 0, finishReason: 'tool-calls' });
    expect(graph.nodes.find((node) => node.kind === 'tool-interrupt')).toMatchObject({ status: 'paused — waiting for an answer' });
  });
});

describe('node states in the SDK’s words', () => {
  const stateOf = async (name: string) => toolCalls(await graphOf(name)).map((call) => [call.name, call.status, call.runtimeState?.code, call.loopWentOn ?? false]);

  it('a tool that throws is a tool-error the model sees: the call goes on and does not fail', async () => {
    const graph = await graphOf('ai-sdk-tool-throws');
    expect(await stateOf('ai-sdk-tool-throws')).toEqual([['checkInventory', 'error', 'tool-error', true]]);
    expect(graph.generates[0].status).toBe('ok');
    const call = graph.generates[0].turns[0].toolCalls[0];
    // The next model call follows the failed tool (the branch does not end there).
    expect(graph.edges.some((edge) => edge.source === call.id && edge.target === graph.generates[0].turns[1].model!.id)).toBe(true);
  });

  it('an unknown tool is NoSuchToolError, an invalid input InvalidToolInputError — the loop goes on', async () => {
    expect(await stateOf('ai-sdk-unknown-tool')).toEqual([['cancelSubscription', 'error', 'NoSuchToolError', true]]);
    expect(await stateOf('ai-sdk-invalid-tool-input')).toEqual([['getWeather', 'error', 'InvalidToolInputError', true]]);
    const graph = await graphOf('ai-sdk-unknown-tool');
    expect(graph.generates[0].turns[0].toolCalls[0].errorMessage).toMatch(/^AI_NoSuchToolError: /);
    expect(graph.nodes.find((node) => node.kind === 'tool-call')?.status).toBe('NoSuchToolError — the model saw the error and went on');
    expect(renderGraphText(graph)).toContain('cancelSubscription#cancel-1  NoSuchToolError — the model saw the error and went on: AI_NoSuchToolError: ');
  });

  it('a provider-executed tool: its span inside the chat, type extension, the provider’s result', async () => {
    const graph = await graphOf('ai-sdk-provider-executed-tool');
    expect(await stateOf('ai-sdk-provider-executed-tool')).toEqual([['webSearch', 'ok', 'provider-executed', false]]);
    expect(graph.generates[0].turns[0].toolCalls[0].output).toBeDefined();
  });

  it('a dynamic tool draws like a static one', async () => {
    expect(await stateOf('ai-sdk-dynamic-tool')).toEqual([['lookupCustomer', 'ok', undefined, false]]);
  });

  it('a repaired call leaves no trace in ai@7.0.173’s spans: the model call already records the repaired input', async () => {
    const graph = await graphOf('ai-sdk-repair-tool-call');
    const call = graph.generates[0].turns[0].toolCalls[0];
    expect(call).toMatchObject({ status: 'ok', input: graph.generates[0].turns[0].model!.toolRequests[0].input });
    expect(call.runtimeState).toBeUndefined();
  });

  it('the step limit: finish reason tool-calls with every call run is ok, not a pause', async () => {
    const graph = await graphOf('ai-sdk-step-limit');
    const [call] = graph.generates;
    expect(call).toMatchObject({ status: 'ok', finishReason: 'tool-calls', runtimeState: { code: 'step-limit' } });
    expect(call.pendingInterrupts).toEqual([]);
    expect(graph.nodes[0].status).toMatch(/step limit/);
  });
});

describe('what the offered tools (gen_ai.tool.definitions) tell', () => {
  // The hand-written GenAI trace, as the AI SDK's tracer would have recorded it (scope `gen_ai`): the AI SDK's reading of offered tools.
  const deferred = async () => (await loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'otel-genai', '__fixtures__', 'deferred-tool-pending.otlp.json'))).map((span) => ({ ...span, scope: { name: 'gen_ai' } }));
  const offering = async (tools: object[]) =>
    buildRunGraph((await deferred()).map((span) => (span.name.startsWith('chat ') ? { ...span, attributes: { ...span.attributes, 'gen_ai.tool.definitions': JSON.stringify(tools) } } : span))).generates[0].turns[0].toolCalls[0];

  it('a function tool asked for and never run is pending; its definition is named as evidence, and cannot tell approval from handed back', async () => {
    const call = await offering([{ type: 'function', name: 'delete_file', parameters: {} }]);
    expect(call.status).toBe('interrupted');
    expect(call.interrupt?.metadata).toMatchObject({ evidence: expect.stringContaining('offered to the model as a function tool') });
  });

  it('a provider tool with no span and no result ran at the provider: not a pause', async () => {
    expect(await offering([{ type: 'provider', name: 'delete_file', id: 'x.delete' }])).toMatchObject({ status: 'ok', runtimeState: { code: 'provider-executed' } });
  });

  it('a tool the model was not offered is no pause', async () => {
    expect(await offering([{ type: 'function', name: 'read_file' }])).toMatchObject({ status: 'not-run', runtimeState: { code: 'not-offered' } });
  });
});
