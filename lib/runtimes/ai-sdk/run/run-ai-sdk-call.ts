import { APICallError, generateText, stepCountIs, type ModelMessage, type Telemetry, type ToolApprovalConfiguration, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { AI_SDK_DEFAULT_MAX_STEPS, type AiSdkScenario, type AiSdkScriptedResume } from '../../../contract/ai-sdk-scenario';
import { errorMessage } from '../../../errors';
import { answerMessages, signApprovalRequests } from './ai-sdk-answers';
import type { AiSdkToolCatalog } from './load-ai-sdk-tools';
import type { RunStepper } from '../../../runner/run-stepper';
import { bodyExcerpt, type RealModelChoice } from '../../../contract/provider';
import type { ProviderEndpoint } from '../../../runner/provider-endpoint';
import { providerLanguageModel } from './provider-language-model';
import { scriptedLanguageModel } from './scripted-language-model';
import { steppedCall } from './step-hooks';
import { pendingCalls, type AiSdkPendingCall } from './pending-calls';

// The pending calls moved to their own module (the app package reads them too); importers keep finding them here.
export { pendingCalls, type AiSdkPendingCall };

export interface AiSdkCallOutcome {
  /** The AI SDK's finish reason of the last step (`tool-calls` when the loop stopped for an answer). */
  finishReason: string;
  text: string;
  /** Calls waiting for an answer; empty when the loop is done. */
  interrupts: AiSdkPendingCall[];
  /** The whole history after the call (prompt, answers, responses): what the next call continues. */
  messages: ModelMessage[];
  steps: number;
}

export interface AiSdkCallFailure {
  message: string;
  /** The AI SDK error's name (`AI_InvalidToolApprovalSignatureError`, …). */
  name?: string;
  status?: string;
}

/** The catalog's tools a scenario offers its model. */
export function toolSetOf({ scenario, catalog }: { scenario: AiSdkScenario; catalog: AiSdkToolCatalog }): ToolSet {
  const tools: ToolSet = {};
  // A scenario may name a tool that exists nowhere (the NoSuchToolError scenario offers only
  // what exists and the model asks for the other): unknown names are simply not offered.
  for (const name of scenario.tools) if (Object.hasOwn(catalog.tools, name)) tools[name] = catalog.tools[name];
  return tools;
}

function toolApprovalOf({ scenario, catalog }: { scenario: AiSdkScenario; catalog: AiSdkToolCatalog }): ToolApprovalConfiguration<ToolSet, never> | undefined {
  if (!scenario.toolApproval) return undefined;
  const configuration: Record<string, unknown> = {};
  for (const [toolName, mode] of Object.entries(scenario.toolApproval)) {
    if (mode !== 'policy') {
      configuration[toolName] = mode;
      continue;
    }
    const policy = catalog.policies[toolName];
    if (!policy) throw Object.assign(new Error(`Scenario "${scenario.name}" asks for the approval policy of ${toolName}, but no module in tools/ai-sdk/ exports toolApproval.${toolName}.`), { status: 'FAILED_PRECONDITION' });
    configuration[toolName] = policy;
  }
  return configuration as ToolApprovalConfiguration<ToolSet, never>;
}

/** `repairToolCall` from the scenario's repairs: a call that failed to parse gets the scripted input, by tool call id. */
function repairOf(scenario: AiSdkScenario): ToolCallRepairFunction<ToolSet> | undefined {
  if (!scenario.repairs?.length) return undefined;
  const repairs = new Map(scenario.repairs.map((repair) => [repair.ref, repair.input]));
  return async ({ toolCall }) => (repairs.has(toolCall.toolCallId) ? { ...toolCall, input: JSON.stringify(repairs.get(toolCall.toolCallId)) } : null);
}

/**
 * One real `generateText` call of an AI SDK scenario on its scripted model: the first call
 * (the scenario's prompt), or the next one that continues `messages` with the scripted
 * `answers`. Spans go to whatever telemetry integration is registered (`registerTelemetry`),
 * or to `integrations` for this call only; `functionId` is the scenario's name.
 *
 * What the model or a tool did wrong (an unknown tool, a bad input, a throwing tool) is in
 * the outcome, as the AI SDK reports it; only what `generateText` throws is a failure.
 */
export async function runAiSdkCall(options: {
  scenario: AiSdkScenario;
  catalog: AiSdkToolCatalog;
  /** The HMAC secret for scenarios with `approvalSecret` (the same for the call and its answer). */
  approvalSecret?: string;
  messages?: readonly ModelMessage[];
  answers?: AiSdkScriptedResume;
  integrations?: Telemetry[];
  /** The AI SDK's own tool time limit (`timeout.toolMs`): a tool past it becomes a tool error. */
  toolTimeoutMs?: number;
  /** A step-by-step run (or the hooks in Run mode): the model and the tools pause where its mode says (step-hooks.ts). */
  stepper?: RunStepper;
  /** A real model instead of the scenario's scripted one (the scenario's prompt, tools and approvals stay). */
  provider?: RealModelChoice;
  /** The runner's OpenAI-compatible endpoint (its environment), for `provider`. */
  endpoint?: ProviderEndpoint;
  /**
   * Stop, given to the SDK for a real model only: it aborts the request in flight. The scripted
   * model has none, and the SDK would listen to the signal at every step and tool of every call
   * (step-hooks.ts `steppedCall`); a stepped call stops through its hooks, a tool that runs is
   * not waited for (lib/runner/request-stop.ts).
   */
  abortSignal?: AbortSignal;
}): Promise<{ outcome?: AiSdkCallOutcome; failure?: AiSdkCallFailure }> {
  const { scenario } = options;
  try {
    let history: ModelMessage[] = options.messages
      ? options.answers
        ? answerMessages({ messages: options.messages, answers: options.answers })
        : structuredClone([...options.messages])
      : [{ role: 'user', content: scenario.prompt }];
    if (scenario.approvalSecret && !options.approvalSecret) {
      throw Object.assign(new Error(`Scenario "${scenario.name}" signs its approvals, but no approval secret was given.`), { status: 'FAILED_PRECONDITION' });
    }
    // An answer rebuilt from a trace lost its requests' signatures: the run signs them as the app's server would.
    if (scenario.approvalSecret && options.messages) history = await signApprovalRequests({ messages: history, secret: options.approvalSecret as string });
    const model = options.provider ? providerLanguageModel({ choice: options.provider, endpoint: options.endpoint }) : scriptedLanguageModel(scenario);
    const tools = toolSetOf(options);
    const stepped = options.stepper ? steppedCall({ model, tools, stepper: options.stepper, toolTimeoutMs: options.toolTimeoutMs }) : undefined;
    const result = await generateText({
      ...(stepped ?? { model, tools }),
      messages: history,
      stopWhen: stepCountIs(scenario.maxSteps ?? AI_SDK_DEFAULT_MAX_STEPS),
      toolApproval: toolApprovalOf(options),
      ...(scenario.approvalSecret ? { experimental_toolApprovalSecret: options.approvalSecret } : {}),
      repairToolCall: repairOf(scenario),
      ...(options.toolTimeoutMs && !stepped ? { timeout: { toolMs: options.toolTimeoutMs } } : {}),
      // A real endpoint: the first answer, as one model call (the SDK retries twice by default).
      ...(options.provider ? { maxRetries: 0 } : {}),
      telemetry: { functionId: scenario.name, ...(options.integrations ? { integrations: options.integrations } : {}) },
      ...(options.abortSignal && options.provider ? { abortSignal: options.abortSignal } : {}),
    });
    return {
      outcome: {
        finishReason: result.finishReason,
        text: result.text,
        interrupts: pendingCalls(result),
        // Every step's messages after the approved tools' results: `response.messages` is the final step's alone (ai@7).
        messages: [...history, ...result.responseMessages],
        steps: result.steps.length,
      },
    };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    // An endpoint's refusal: the SDK's message is the endpoint's error text alone; its status and body say more (as data).
    const http = APICallError.isInstance(error) ? ` (HTTP ${error.statusCode ?? 'no status'}: ${bodyExcerpt(error.responseBody ?? '')})` : '';
    return {
      failure: {
        message: `${errorMessage(error)}${http}`,
        name: error instanceof Error ? error.name : undefined,
        status: typeof status === 'string' ? status : undefined,
      },
    };
  }
}
