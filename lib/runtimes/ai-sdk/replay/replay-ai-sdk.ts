/**
 * Replays a recording of Vercel AI SDK calls with the real `generateText`: each recorded call
 * runs again on a `LanguageModelV4` that answers from its recorded model calls and compares
 * every request with the recorded one (replay-ai-sdk-model.ts), with stub tools that play back
 * the recorded tool runs, or the local tools of tools/ai-sdk/ (replay-ai-sdk-tools.ts), and the
 * recorded settings (the tools offered, the approval decisions, the step limit). The loop, the
 * approvals and the tool errors are the SDK's own; only the answers come from the recording.
 * An answering call sends the messages its parent call returned in this replay (its input and
 * `responseMessages`: every step's, not the final step's `response.messages`), plus its
 * recorded answers (approve, deny, a caller's result), built as any caller builds them
 * (ai-sdk-answers.ts). Spans go to whatever telemetry integration is registered.
 */
import { randomBytes } from 'node:crypto';
import { generateText, stepCountIs, type ModelMessage, type Tool } from 'ai';
import type { AiSdkCallStep, AiSdkRecording } from '../read/recording';
import { GENERATED_ID } from '../read/sdk-words';
import type { AiSdkScriptedResume } from '../../../contract/ai-sdk-scenario';
import type { StepOutcome } from '../../../contract/replay';
import type { ReplayMode, ReplayReport, ReplayStepResult } from '../../../replay/replay-report';
import { replayEachStep, untraced, type TraceGenerate } from '../../../replay/replay-each-step';
import { ReplaySession, replayReport, type ReplayOverrides } from '../../../replay/replay-session';
import { canonicalJson, jsonCopy } from '../../../spans/json-value';
import { answerMessages } from '../run/ai-sdk-answers';
import { pendingCalls } from '../run/run-ai-sdk-call';
import { replayLanguageModel, type AnnouncedCall } from './replay-ai-sdk-model';
import { liveToolSet, recordedApprovals, replayToolSet, type CurrentStep } from './replay-ai-sdk-tools';

export interface AiSdkReplayOptions {
  mode?: ReplayMode;
  /** The local AI SDK tools (tools/ai-sdk/): they run instead of the stubs, compared with the recording. */
  liveTools?: Record<string, Tool>;
  /** Fork: recorded tool outcomes replaced, by recorded span (`traceId:spanId`). */
  overrides?: ReplayOverrides;
  /** Wraps each replayed call so its root span links to the recorded call it replays and to the replayed call it answers (lib/runner/answer-link.ts). */
  traceGenerate?: TraceGenerate;
}

/** An outcome as compared: the ids the SDK made up in that run (an approval id in an error message) left out. */
function comparable(outcome: StepOutcome): StepOutcome {
  return outcome.kind === 'error' ? { ...outcome, message: outcome.message.replace(GENERATED_ID, '(generated id)') } : outcome;
}

/** A tool call's input in the last assistant message of `messages`. */
function inputIn(messages: readonly ModelMessage[], toolCallId: string): unknown {
  const assistant = messages.findLast((message) => message.role === 'assistant');
  const content = assistant && typeof assistant.content !== 'string' ? assistant.content : [];
  return content.find((part) => part.type === 'tool-call' && part.toolCallId === toolCallId)?.['input' as never];
}

/**
 * The answers of an answering call in the shape a caller sends them (approve, deny, respond).
 * An approved call whose input in the recorded history is not the one its parent returned was
 * sent changed (a forged approval): the replay sends the recorded input, as that caller did.
 */
function scriptedAnswers({ step, parent }: { step: AiSdkCallStep; parent: readonly ModelMessage[] }): AiSdkScriptedResume {
  const answers = step.answers ?? [];
  return {
    approve: answers.flatMap((answer) => {
      if (answer.kind !== 'approve') return [];
      const changed = answer.input !== undefined && canonicalJson(answer.input) !== canonicalJson(inputIn(parent, answer.toolCallId));
      return [{ toolName: answer.toolName, toolCallId: answer.toolCallId, ...(changed ? { forgedInput: answer.input as never } : {}) }];
    }),
    deny: answers.flatMap((answer) => (answer.kind === 'deny' ? [{ toolName: answer.toolName, toolCallId: answer.toolCallId, reason: answer.reason as string }] : [])),
    respond: answers.flatMap((answer) => (answer.kind === 'result' ? [{ toolName: answer.toolName, toolCallId: answer.toolCallId, output: answer.output as never }] : [])),
  };
}

/** The messages a call is sent: its replayed parent's with the recorded answers, else the recorded ones. */
function messagesFor({ step, replayedMessages }: { step: AiSdkCallStep; replayedMessages: Map<number, ModelMessage[]> }): { messages: ModelMessage[]; source?: ReplayStepResult['history'] } {
  const parent = step.continues === undefined ? undefined : replayedMessages.get(step.continues);
  if (parent && step.answers) return { messages: answerMessages({ messages: parent, answers: scriptedAnswers({ step, parent }) }), source: 'replayed' };
  return { messages: jsonCopy(step.messages) as ModelMessage[], source: step.continues !== undefined || step.answers ? 'recorded' : undefined };
}

async function replayCall({ recording, step, session, options, messages, approvalSecret }: {
  recording: AiSdkRecording;
  /** The secret every call of this replay signs its approvals with, when the recording's were signed. */
  approvalSecret?: string;
  step: AiSdkCallStep;
  session: ReplaySession;
  options: AiSdkReplayOptions;
  messages: ModelMessage[];
}): Promise<{ outcome: StepOutcome; messages?: ModelMessage[] }> {
  const announced: AnnouncedCall = {};
  const current: CurrentStep = { step };
  const tools = { ...replayToolSet({ recording, session, current }), ...(options.liveTools ? liveToolSet({ recording, session, local: options.liveTools }) : {}) };
  try {
    const result = await generateText({
      model: replayLanguageModel({ step, session, announced }),
      ...(step.system !== undefined ? { system: step.system } : {}),
      ...step.settings,
      messages,
      tools,
      toolApproval: recordedApprovals(recording),
      ...(approvalSecret ? { experimental_toolApprovalSecret: approvalSecret } : {}),
      stopWhen: stepCountIs(step.maxSteps),
      // Each recorded model span is one attempt: a retry would ask the recording twice.
      maxRetries: 0,
      onLanguageModelCallStart: (event) => {
        announced.messages = event.messages;
      },
      // The recorded call's name, so the replay's spans read like the recording's.
      telemetry: { functionId: step.functionId ?? step.label },
    });
    const waiting = pendingCalls(result);
    const outcome: StepOutcome = waiting.length > 0 ? { kind: 'interrupted' } : { kind: 'finished', finishReason: result.finishReason, message: result.text };
    // Every step's messages after the approved tools' results (`response.messages` is the final step's alone): what the recorded app appended.
    return { outcome, messages: [...messages, ...result.responseMessages] };
  } catch (error) {
    return { outcome: { kind: 'error', message: error instanceof Error ? error.message : String(error) } };
  }
}

/**
 * Replays every call of an AI SDK recording in causal order and compares it with the
 * recording: the same report, divergences named by call and field, as a genkit replay's.
 */
export async function replayAiSdkRecording(recording: AiSdkRecording, options: AiSdkReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now();
  const mode = options.mode ?? 'strict';
  const session = new ReplaySession(mode, options.overrides);
  const replayedMessages = new Map<number, ModelMessage[]>();
  // Signed as the recording was, with a secret of this replay's own: a changed approval fails to verify again.
  const approvalSecret = recording.signedApprovals ? randomBytes(32).toString('hex') : undefined;
  const results = await replayEachStep({
    session,
    steps: recording.steps,
    comparable,
    replayStep: async (step, link) => {
      const sent = messagesFor({ step, replayedMessages });
      const call = await (options.traceGenerate ?? untraced)(link, () => replayCall({ recording, step, session, options, messages: sent.messages, approvalSecret }));
      if (call.messages) replayedMessages.set(step.index, call.messages);
      return { replayed: call.outcome, history: sent.source };
    },
  });
  return replayReport({ session, mode, liveTools: options.liveTools !== undefined, steps: results, startedAt: started, spanCount: recording.spanCount });
}
