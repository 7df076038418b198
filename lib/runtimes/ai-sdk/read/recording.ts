/**
 * Reads a replayable chain out of AI SDK spans (docs/interrupt-model.md, "Vercel AI SDK v7"):
 * each top-level call read by the call reader (read-call.ts), each model call's request and
 * answer from its `chat` / `doGenerate` span, each tool run from its `execute_tool` /
 * `ai.toolCall` span, and the settings the spans show — the tools offered (with or without
 * `execute`), the approval decisions, repairs, refused inputs, the step limit.
 */
import { LoopscopeError } from '../../../errors';
import { isObject } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { spanKey, compareNanos, type Span } from '../../../spans/span';
import type { GenerateCall, ToolCall } from '../../../loop/loop-model';
import { enclosingCall, type SpanIndex } from '../../../loop/span-index';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import type { GenAiMessage } from '../../otel-genai/read/genai-messages';
import type { RecordedToolExecution } from '../../../loop/recorded-calls';
import { isAiSdkSpan } from './classify-span';
import { recordedCallSettings } from './call-settings';
import { LEGACY } from './legacy-spans';
import { pairApprovalParts, type ApprovalOf } from './approval-pairing';
import { toModelMessages } from './model-messages';
import { readAiSdkCall } from './read-call';
import type { AiSdkAnswer, AiSdkApprovalDecision, AiSdkCallStep, AiSdkContinuation, AiSdkRecordedContent, AiSdkRecordedModelCall, AiSdkRecordedTool, AiSdkRecording, AiSdkSpanSource } from './recording-model';
import { APPROVAL_REQUEST_PART, APPROVAL_SIGNATURE_FAILURE, denialOf, PROVIDER_EXECUTED_TOOL_TYPE, PROVIDER_TOOL_DEFINITION_TYPE } from './sdk-words';
import { messagesView, sdkSpanSource } from './span-views';

export type * from './recording-model';

const parsed = (span: Span, attribute: string): unknown => jsonAttributeOrUndefined(span.attributes[attribute]);
const numberAttribute = (span: Span, attribute: string) => (typeof span.attributes[attribute] === 'number' ? (span.attributes[attribute] as number) : undefined);

/**
 * The tool definitions a model call was sent. `@ai-sdk/otel` appends `{type: "extension", name}`
 * for a provider-executed tool it saw in the answer when nothing defined it: not sent, so left out.
 */
function sentTools(span: Span, source: AiSdkSpanSource): unknown[] | undefined {
  const value = parsed(span, source === 'legacy' ? LEGACY.tools : GEN_AI.toolDefinitions);
  if (!Array.isArray(value)) return undefined;
  const tools = value.map((tool) => (typeof tool === 'string' ? (jsonAttributeOrUndefined(tool) ?? tool) : tool));
  return source === 'genai' ? tools.filter((tool) => !(isObject(tool) && tool.type === PROVIDER_EXECUTED_TOOL_TYPE && Object.keys(tool).length === 2)) : tools;
}

/** A model's answer as `LanguageModelV4` content: texts first, then each tool call (a provider-executed one followed by its result). */
function answerContent(messages: readonly GenAiMessage[]): AiSdkRecordedContent[] {
  const parts = messages.filter((message) => message.role === 'assistant').flatMap((message) => message.parts);
  const results = new Map(parts.filter((part) => part.type === 'tool_call_response' && part.id !== undefined).map((part) => [part.id!, part.response]));
  const content: AiSdkRecordedContent[] = [];
  for (const part of parts) if (part.type === 'reasoning') content.push({ type: 'reasoning', text: part.content ?? '' });
  for (const part of parts) if (part.type === 'text' && part.content) content.push({ type: 'text', text: part.content });
  for (const part of parts) {
    if (part.type !== 'tool_call') continue;
    const toolCallId = part.id ?? '';
    const toolName = part.name ?? '';
    const input = typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments ?? {});
    if (!results.has(toolCallId)) {
      content.push({ type: 'tool-call', toolCallId, toolName, input });
      continue;
    }
    content.push({ type: 'tool-call', toolCallId, toolName, input, providerExecuted: true }, { type: 'tool-result', toolCallId, toolName, result: results.get(toolCallId) ?? null });
  }
  return content;
}

function modelCall({ span, source, ordinal, failed }: { span: Span; source: AiSdkSpanSource; ordinal: number; failed?: string }): AiSdkRecordedModelCall {
  const view = messagesView(span);
  const call: AiSdkRecordedModelCall = {
    traceId: span.traceId,
    spanId: span.spanId,
    ordinal,
    request: { messages: parsed(span, source === 'legacy' ? LEGACY.promptMessages : GEN_AI.inputMessages), tools: sentTools(span, source), config: recordedCallSettings(span) },
  };
  if (failed !== undefined) return { ...call, errorMessage: failed };
  call.response = {
    content: answerContent(view.output.messages),
    finishReason: view.finishReasons[0] ?? 'stop',
    inputTokens: numberAttribute(span, 'gen_ai.usage.input_tokens'),
    outputTokens: numberAttribute(span, 'gen_ai.usage.output_tokens'),
    responseId: stringAttribute(span.attributes['gen_ai.response.id']),
    modelId: stringAttribute(span.attributes[GEN_AI.responseModel]),
  };
  return call;
}

function toolsOffered(tools: unknown[] | undefined, into: Map<string, AiSdkRecordedTool>): void {
  for (const tool of tools ?? []) {
    if (!isObject(tool) || typeof tool.name !== 'string' || into.has(tool.name)) continue;
    const provider = tool.type === PROVIDER_TOOL_DEFINITION_TYPE;
    into.set(tool.name, {
      name: tool.name,
      type: provider ? 'provider' : 'function',
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
      ...(provider && typeof tool.id === 'string' ? { providerId: tool.id, args: tool.args ?? {} } : {}),
      execute: !provider,
    });
  }
}

function execution(call: ToolCall): RecordedToolExecution {
  return {
    traceId: call.traceId,
    spanId: call.spanId!,
    name: call.name,
    input: call.input,
    restarted: false,
    outcome: call.status === 'error' ? { kind: 'error', message: call.errorMessage ?? '' } : { kind: 'output', output: call.output },
  };
}

function outcomeOf(call: GenerateCall): AiSdkCallStep['outcome'] {
  if (call.status === 'error') return { kind: 'error', message: call.errorMessage ?? '' };
  if (call.status === 'running') return { kind: 'error', message: 'The call had not ended when it was recorded.' };
  if (call.status === 'interrupted') return { kind: 'interrupted' };
  return { kind: 'finished', finishReason: call.finishReason ?? 'unknown', message: call.text ?? '' };
}

function answersOf(continuation: AiSdkContinuation | undefined): AiSdkAnswer[] | undefined {
  if (!continuation) return undefined;
  const answers = continuation.resolutions.flatMap((resolution): AiSdkAnswer[] => {
    const toolCallId = resolution.request.ref;
    if (toolCallId === undefined) return [];
    const toolName = resolution.request.name;
    if (resolution.kind === 'restart') return [{ kind: 'approve', toolCallId, toolName }];
    // Left unresolved because the answering call failed first: an approval it sent, if the call asked for one (decided below).
    if (resolution.kind === 'unresolved') return [{ kind: 'approve', toolCallId, toolName, tentative: true }];
    if (resolution.kind !== 'respond') return [];
    const denial = denialOf(resolution.output);
    return [denial ? { kind: 'deny', toolCallId, toolName, ...(denial.reason !== undefined ? { reason: denial.reason } : {}) } : { kind: 'result', toolCallId, toolName, output: resolution.output }];
  });
  return answers.length > 0 ? answers : undefined;
}

/** What the SDK's refusal of an input showed the model: the validation message after `Error message: `. */
function refusal(response: unknown): string | undefined {
  if (typeof response !== 'string' || !response.startsWith('AI_InvalidToolInputError:')) return undefined;
  const at = response.indexOf('Error message: ');
  return at < 0 ? undefined : response.slice(at + 'Error message: '.length);
}

/**
 * Approved tools that ran with no tool span (`LegacyOpenTelemetry` records none for a tool
 * approved in the answering call): the result the first model call was sent is what it returned.
 */
function unspannedApprovedRuns({ step, call, chatInputs }: { step: AiSdkCallStep; call: GenerateCall; chatInputs: GenAiMessage[][] }): RecordedToolExecution[] {
  const spanned = new Set(call.resumeToolCalls.map((toolCall) => toolCall.ref));
  const sent = new Map(
    (chatInputs[0] ?? []).flatMap((message) => message.parts).filter((part) => part.type === 'tool_call_response' && part.id !== undefined).map((part) => [part.id!, part.response]),
  );
  const calls = new Map((chatInputs[0] ?? []).flatMap((message) => message.parts).filter((part) => part.type === 'tool_call' && part.id !== undefined).map((part) => [part.id!, part.arguments]));
  return (step.answers ?? []).flatMap((answer): RecordedToolExecution[] => {
    if (answer.kind !== 'approve' || spanned.has(answer.toolCallId) || !sent.has(answer.toolCallId)) return [];
    return [{ traceId: step.traceId, spanId: step.spanId, name: answer.toolName, input: calls.get(answer.toolCallId), restarted: false, outcome: { kind: 'output', output: sent.get(answer.toolCallId) } }];
  });
}

interface ReadStep {
  step: AiSdkCallStep;
  call: GenerateCall;
  inputMessages: GenAiMessage[];
  chatInputs: GenAiMessage[][];
}

/** Some recorded history holds the assistant message with this tool call and approval requests. */
function askedInHistory(read: readonly ReadStep[], toolCallId: string): boolean {
  return read.some(({ inputMessages }) =>
    inputMessages.some((message) => message.role === 'assistant' && message.parts.some((part) => part.type === 'tool_call' && part.id === toolCallId) && message.parts.some((part) => part.type === APPROVAL_REQUEST_PART)),
  );
}

/**
 * The approval decision of each tool call. A call left waiting is `user-approval` when an
 * answer approved or denied it, or when it has `execute` (it ran somewhere, or its tool is one
 * that asks); a call that ran or was denied inside its own call was decided by a policy when an
 * assistant message that asked for it carries more approval requests than calls that waited.
 */
function approvalDecisions(read: readonly ReadStep[], tools: Map<string, AiSdkRecordedTool>): Map<string, AiSdkApprovalDecision> {
  const decisions = new Map<string, AiSdkApprovalDecision>();
  const answered = new Map<string, AiSdkAnswer>();
  for (const { step } of read) for (const answer of step.answers ?? []) if (!(answer.kind === 'approve' && answer.tentative)) answered.set(answer.toolCallId, answer);
  const calls = new Map<string, ToolCall>();
  for (const { call } of read) for (const turn of call.turns) for (const toolCall of turn.toolCalls) if (toolCall.ref !== undefined) calls.set(toolCall.ref, toolCall);
  const ran = new Set(read.flatMap(({ step }) => step.toolExecutions.map((execution) => execution.name)));
  for (const [toolCallId, toolCall] of calls) {
    if (toolCall.status !== 'interrupted') continue;
    const answer = answered.get(toolCallId);
    // Unanswered: a tool that ran somewhere has `execute`, so its call waited for an approval; so
    // did one a later call's history shows with approval requests (an answer refused: a bad signature).
    const asks = answer ? answer.kind !== 'result' : ran.has(toolCall.name) || askedInHistory(read, toolCallId);
    if (asks) decisions.set(toolCallId, { type: 'user-approval' });
    else {
      const tool = tools.get(toolCall.name);
      if (tool) tools.set(toolCall.name, { ...tool, execute: false });
    }
  }
  const seen = new Set<string>();
  for (const { inputMessages, chatInputs } of read) {
    for (const message of [inputMessages, ...chatInputs].flat()) {
      if (message.role !== 'assistant') continue;
      const ids = message.parts.filter((part) => part.type === 'tool_call' && part.id !== undefined).map((part) => part.id!);
      const key = JSON.stringify(ids);
      if (ids.length === 0 || seen.has(key)) continue;
      seen.add(key);
      const requests = message.parts.filter((part) => part.type === APPROVAL_REQUEST_PART);
      const named = new Set(requests.flatMap((part) => (part.id !== undefined ? [part.id] : [])));
      let bare = requests.length - named.size - ids.filter((id) => decisions.get(id)?.type === 'user-approval' && !named.has(id)).length;
      for (const id of ids) {
        if (decisions.has(id)) continue;
        const toolCall = calls.get(id);
        if (!toolCall || (!named.has(id) && bare <= 0)) continue;
        const denial = toolCall.runtimeState?.code === 'denied' ? denialOf(toolCall.output) : undefined;
        if (denial) decisions.set(id, { type: 'denied', ...(denial.reason !== undefined ? { reason: denial.reason } : {}) });
        else if (toolCall.spanId !== undefined) decisions.set(id, { type: 'approved' });
        else continue;
        if (!named.has(id)) bare -= 1;
      }
    }
  }
  return decisions;
}

/**
 * Reads the replayable chain out of AI SDK spans (one or several traces, each call its own).
 * `continuation`: for an answering call, what the graph's linking says it answers.
 * @throws LoopscopeError FAILED_PRECONDITION when there is no AI SDK call to replay.
 */
export function readAiSdkRecording(options: { index: SpanIndex; continuation: (callId: string) => AiSdkContinuation | undefined }): AiSdkRecording {
  const { index } = options;
  const roots = index.spans
    .filter((span) => isAiSdkSpan(span) && index.classify(span).role === 'generate' && enclosingCall(index, span).call === undefined)
    .sort((a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano));
  if (roots.length === 0) throw new LoopscopeError('FAILED_PRECONDITION', 'These spans hold no AI SDK call to replay.');
  const bySpan = new Map(index.spans.map((span) => [spanKey(span), span]));
  const tools = new Map<string, AiSdkRecordedTool>();
  const stepOfCall = new Map<string, number>();
  const read: ReadStep[] = [];
  for (const root of roots) {
    const source = sdkSpanSource(root) ?? 'genai';
    const { call } = readAiSdkCall({ index, root });
    const modelCalls: AiSdkRecordedModelCall[] = [];
    const chatInputs: GenAiMessage[][] = [];
    for (const turn of call.turns) {
      const span = turn.model ? bySpan.get(turn.model.id) : undefined;
      if (!span) continue;
      const recorded = modelCall({ span, source, ordinal: modelCalls.length + 1, failed: turn.model?.status === 'error' ? (turn.model.errorMessage ?? '') : undefined });
      toolsOffered(recorded.request.tools as unknown[] | undefined, tools);
      modelCalls.push(recorded);
      chatInputs.push(messagesView(span).input.messages);
    }
    const toolCalls = [...call.resumeToolCalls, ...call.turns.flatMap((turn) => turn.toolCalls)];
    const repairs: Record<string, unknown> = {};
    const invalidInputs: Record<string, { input: unknown; message: string }[]> = {};
    for (const toolCall of toolCalls) {
      if (toolCall.runtimeState?.code === 'repaired' && toolCall.ref !== undefined) repairs[toolCall.ref] = toolCall.input;
      const message = toolCall.runtimeState?.code === 'InvalidToolInputError' ? refusal(toolCall.output) : undefined;
      if (message !== undefined) (invalidInputs[toolCall.name] ??= []).push({ input: toolCall.input, message });
    }
    const continuation = options.continuation(spanKey(root));
    const parent = continuation?.answersGenerateId === undefined ? undefined : stepOfCall.get(continuation.answersGenerateId);
    const view = messagesView(root);
    const legacyPrompt = source === 'legacy' ? parsed(root, LEGACY.prompt) : undefined;
    const system = isObject(legacyPrompt) && typeof legacyPrompt.system === 'string' ? legacyPrompt.system : systemInstructions(root);
    const functionId = stringAttribute(root.attributes[source === 'legacy' ? LEGACY.functionId : GEN_AI.agentName]);
    const answers = answersOf(continuation)?.map((answer) => (answer.kind === 'approve' ? { ...answer, input: inputOfCall(view.input.messages, answer.toolCallId) } : answer));
    const step: AiSdkCallStep = {
      kind: 'generate',
      index: read.length,
      traceId: root.traceId,
      spanId: root.spanId,
      label: `call ${read.length + 1}${answers || parent !== undefined ? ' (answer)' : ''}`,
      source,
      outcome: outcomeOf(call),
      provider: stringAttribute(root.attributes['gen_ai.provider.name']) ?? stringAttribute(root.attributes['gen_ai.system']) ?? stringAttribute(root.attributes['ai.model.provider']) ?? 'recorded',
      modelId: view.model ?? call.model ?? 'recorded-model',
      ...(functionId !== undefined ? { functionId } : {}),
      settings: modelCalls[0]?.request.config ?? {},
      ...(system !== undefined ? { system } : {}),
      messages: isObject(legacyPrompt) && Array.isArray(legacyPrompt.messages) ? legacyPrompt.messages : [],
      modelCalls,
      toolExecutions: toolCalls.filter((toolCall) => toolCall.spanId !== undefined && toolCall.runtimeState?.code !== 'provider-executed').map(execution),
      maxSteps: call.runtimeState?.code === 'step-limit' ? call.turns.length : call.turns.length + 1,
      repairs,
      invalidInputs,
      ...(parent !== undefined ? { continues: parent } : {}),
      ...(answers ? { answers } : {}),
    };
    if (isObject(legacyPrompt) && typeof legacyPrompt.prompt === 'string') step.messages = [{ role: 'user', content: legacyPrompt.prompt }];
    step.toolExecutions.push(...unspannedApprovedRuns({ step, call, chatInputs }));
    stepOfCall.set(spanKey(root), step.index);
    read.push({ step, call, inputMessages: view.input.messages, chatInputs });
  }
  const approvals = approvalDecisions(read, tools);
  for (const { step } of read) {
    const answers = step.answers?.flatMap((answer): AiSdkAnswer[] => {
      if (answer.kind !== 'approve' || !answer.tentative) return [answer];
      const { tentative: _tentative, ...approve } = answer;
      return approvals.get(answer.toolCallId)?.type === 'user-approval' || askedInHistory(read, answer.toolCallId) ? [approve] : [];
    });
    if (answers?.length) step.answers = answers;
    else delete step.answers;
  }
  // A GenAI call's messages are rebuilt once the approval decisions are known (they place the bare approval parts).
  const approvalOf = (answersById: Map<string, AiSdkAnswer>): ApprovalOf => (toolCallId) => {
    const decision = approvals.get(toolCallId);
    const answer = answersById.get(toolCallId);
    if (answer?.kind === 'deny') return { asked: true, approved: false, ...(answer.reason !== undefined ? { reason: answer.reason } : {}) };
    if (answer?.kind === 'approve') return { asked: true, approved: true };
    if (decision?.type === 'denied') return { asked: true, approved: false, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) };
    return { asked: decision !== undefined, approved: true };
  };
  for (const { step, inputMessages } of read) {
    if (step.source !== 'genai') continue;
    step.messages = toModelMessages(pairApprovalParts(inputMessages, approvalOf(new Map((step.answers ?? []).map((answer) => [answer.toolCallId, answer]))))).messages;
  }
  const steps = read.map(({ step }) => step);
  const signedApprovals = steps.some((step) => step.outcome.kind === 'error' && APPROVAL_SIGNATURE_FAILURE.test(step.outcome.message));
  return { runtime: 'ai-sdk', steps, tools, approvals, signedApprovals, spanCount: index.spans.length };
}

/** The input of tool call `toolCallId` in the last assistant message of a history that holds it. */
function inputOfCall(messages: readonly GenAiMessage[], toolCallId: string): unknown {
  const part = messages.findLast((message) => message.role === 'assistant' && message.parts.some((candidate) => candidate.id === toolCallId))?.parts.find((candidate) => candidate.type === 'tool_call' && candidate.id === toolCallId);
  return part?.arguments;
}

/** `gen_ai.system_instructions` (`[{type: "text", content}]`) as one text. */
function systemInstructions(span: Span): string | undefined {
  const value = parsed(span, 'gen_ai.system_instructions');
  if (!Array.isArray(value)) return undefined;
  return value.map((part) => (isObject(part) && typeof part.content === 'string' ? part.content : '')).join('');
}
