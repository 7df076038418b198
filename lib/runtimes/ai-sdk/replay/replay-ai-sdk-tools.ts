import { jsonSchema, tool, type Tool, type ToolApprovalConfiguration, type ToolSet } from 'ai';
import type { AiSdkCallStep, AiSdkRecording, AiSdkRecordedTool } from '../read/recording';
import type { RecordedToolOutcome } from '../../../loop/recorded-calls';
import { ReplayStopped, type ReplaySession } from '../../../replay/replay-session';
import { canonicalJson } from '../../../spans/json-value';
import { activeSpan } from './replay-ai-sdk-model';

/** The call of the chain replaying now: the stubs answer from its recorded runs. */
export interface CurrentStep {
  step?: AiSdkCallStep;
}

/** What a tool's stub does when it runs: the recorded outcome played back (an error thrown as the recorded message). */
function playBack(outcome: RecordedToolOutcome): unknown {
  if (outcome.kind === 'error') throw new Error(outcome.message);
  return outcome.kind === 'output' ? outcome.output : undefined;
}

/**
 * The recording's verdict on an input: an input the SDK refused in the recording is refused
 * again with the validation message the model was shown (the AI SDK wraps it in the same
 * `AI_InvalidToolInputError` text), any other is accepted. The schemas are not checked again:
 * the recorded verdicts carry the recorded validator's words, which a second validator would not.
 */
function recordedVerdict({ current, name }: { current: CurrentStep; name: string }) {
  return (value: unknown) => {
    const refused = current.step?.invalidInputs[name]?.find((entry) => canonicalJson(entry.input) === canonicalJson(value));
    // The SDK writes a validation error that is not an Error as it is: the recorded text comes back unchanged.
    return refused ? { success: false as const, error: refused.message as unknown as Error } : { success: true as const, value };
  };
}

function stub({ definition, session, current }: { definition: AiSdkRecordedTool; session: ReplaySession; current: CurrentStep }): Tool {
  const inputSchema = jsonSchema((definition.inputSchema ?? { type: 'object' }) as never, { validate: recordedVerdict({ current, name: definition.name }) });
  if (definition.type === 'provider') {
    return { type: 'provider', id: (definition.providerId ?? definition.name) as `${string}.${string}`, isProviderExecuted: true, args: (definition.args ?? {}) as Record<string, unknown>, inputSchema } as Tool;
  }
  return tool({
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    inputSchema,
    ...(definition.execute
      ? {
          execute: async (input: unknown) => {
            const recorded = session.takeTool({ name: definition.name, input, replayedSpan: activeSpan() });
            if (!recorded) throw new ReplayStopped(session.stopped!);
            return playBack(session.outcomeOf(recorded));
          },
        }
      : {}),
  } as never) as Tool;
}

/** One stub per recorded tool: its recorded definition, its recorded runs played back (a tool without `execute` stays without). */
export function replayToolSet({ recording, session, current }: { recording: AiSdkRecording; session: ReplaySession; current: CurrentStep }): ToolSet {
  const tools: ToolSet = {};
  for (const definition of recording.tools.values()) tools[definition.name] = stub({ definition, session, current });
  return tools;
}

/** Live tools: the local tool runs instead of the stub, matched to its recorded run before and compared after. */
export function liveToolSet({ recording, session, local }: { recording: AiSdkRecording; session: ReplaySession; local: Record<string, Tool> }): ToolSet {
  const tools: ToolSet = {};
  for (const [name, live] of Object.entries(local)) {
    if (!recording.tools.has(name) || !live.execute) continue;
    const execute = live.execute.bind(live);
    tools[name] = {
      ...live,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        const recorded = session.takeTool({ name, input, replayedSpan: activeSpan() });
        const override = recorded ? session.overrideOf(recorded) : undefined;
        if (override) return playBack(override);
        try {
          const output = await execute(input as never, options);
          if (recorded) session.compareToolOutcome({ recorded, actual: { kind: 'output', output } });
          return output;
        } catch (error) {
          if (recorded) session.compareToolOutcome({ recorded, actual: { kind: 'error', message: error instanceof Error ? error.message : String(error) } });
          throw error;
        }
      },
    } as Tool;
  }
  return tools;
}

/** `toolApproval` as recorded: per tool with a decision, a function that answers each tool call id as the recording did (not applicable otherwise). */
export function recordedApprovals(recording: AiSdkRecording): ToolApprovalConfiguration<ToolSet, never> | undefined {
  if (recording.approvals.size === 0) return undefined;
  return ({ toolCall }) => {
    const decision = recording.approvals.get(toolCall.toolCallId);
    if (!decision) return 'not-applicable';
    return decision.type === 'denied' ? { type: 'denied', ...(decision.reason !== undefined ? { reason: decision.reason } : {}) } : decision.type;
  };
}
