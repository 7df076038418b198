import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Text,
  LanguageModelV4ToolCall,
  LanguageModelV4ToolResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { AiSdkScenario, AiSdkScriptedTurn } from '../../../contract/ai-sdk-scenario';
import { scriptedModelName } from '../../../contract/scenario';
import { fillScriptText } from '../../../runner/script-text';

/** The provider name the scripted model reports (`gen_ai.provider.name` of its spans). */
export const SCRIPTED_PROVIDER = 'loopscope-scripted';

/** A scripted model spends no tokens: the usage is all zeros, so a trace's totals say "scripted". */
const NO_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** Which turn a call plays: the number of assistant messages already in the prompt. */
function turnIndexOf(options: LanguageModelV4CallOptions): number {
  return options.prompt.filter((message) => message.role === 'assistant').length;
}

/** What tool call NAME#REF (its tool call id) returned in the prompt's history, for `{{NAME#REF.field}}` in a script's text (lib/runner/script-text.ts). */
function toolOutputIn(prompt: LanguageModelV4CallOptions['prompt'], call: { name: string; ref: string }): { found: boolean; output?: unknown } {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.toolCallId !== call.ref || part.toolName !== call.name) continue;
      const output = part.output;
      if (output.type === 'json' || output.type === 'text' || output.type === 'error-text' || output.type === 'error-json') return { found: true, output: output.value };
      if (output.type === 'execution-denied') return { found: true, output: { denied: true, reason: output.reason } };
      return { found: true, output: output.value };
    }
  }
  return { found: false };
}

/** What a scripted turn can hold: text, tool calls, and the results of provider-executed calls. */
type ScriptedContent = LanguageModelV4Text | LanguageModelV4ToolCall | LanguageModelV4ToolResult;

/**
 * The content of one scripted turn. A tool call carries the script's `ref` as its
 * `toolCallId` (what answers and repairs name it by) and its input exactly as written, so
 * a script can send an input the tool rejects or a tool that does not exist. A
 * provider-executed call is followed by its result, as a provider that ran the tool sends it.
 */
function turnContent(turn: AiSdkScriptedTurn, prompt: LanguageModelV4CallOptions['prompt']): ScriptedContent[] {
  const content: ScriptedContent[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: fillScriptText(turn.text, (call) => toolOutputIn(prompt, call)) });
  for (const call of turn.toolCalls ?? []) {
    const providerExecuted = call.providerExecuted !== undefined;
    content.push({
      type: 'tool-call',
      toolCallId: call.ref,
      toolName: call.name,
      input: JSON.stringify(call.input ?? {}),
      ...(providerExecuted ? { providerExecuted: true } : {}),
    });
    if (call.providerExecuted) {
      content.push({
        type: 'tool-result',
        toolCallId: call.ref,
        toolName: call.name,
        result: (call.providerExecuted.result ?? null) as LanguageModelV4ToolResult['result'],
        ...(call.providerExecuted.isError ? { isError: true } : {}),
      });
    }
  }
  return content;
}

/** `tool-calls` when the turn asks for a tool the loop must run or hand back, `stop` otherwise. */
function finishReasonOf(turn: AiSdkScriptedTurn): LanguageModelV4GenerateResult['finishReason'] {
  const localCalls = (turn.toolCalls ?? []).filter((call) => call.providerExecuted === undefined);
  return localCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

/** The stream parts of one turn: what a streaming provider sends for the same content. */
function streamParts({ turn, responseId, prompt }: { turn: AiSdkScriptedTurn; responseId: string; prompt: LanguageModelV4CallOptions['prompt'] }): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: responseId, modelId: undefined }];
  for (const [index, part] of turnContent(turn, prompt).entries()) {
    if (part.type === 'text') {
      const id = `text-${index}`;
      parts.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: part.text }, { type: 'text-end', id });
    } else {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', usage: NO_USAGE, finishReason: finishReasonOf(turn) });
  return parts;
}

/**
 * A real `LanguageModelV4` that plays an AI SDK scenario's script, turn by turn.
 *
 * It is stateless, like the genkit scripted model (lib/runtimes/genkit-js/run/scripted-model.ts): the turn
 * is the number of assistant messages in the prompt, so a second `generateText` that
 * continues the first one's messages (an approval answered, a handed-back tool's result)
 * plays the next turn in any process.
 */
export function scriptedLanguageModel(scenario: Pick<AiSdkScenario, 'name' | 'script'>): LanguageModelV4 {
  const turnOf = (options: LanguageModelV4CallOptions) => {
    const index = turnIndexOf(options);
    const turn = scenario.script[index];
    if (!turn) {
      throw new Error(
        `The scripted model of scenario "${scenario.name}" has no turn ${index + 1}: its script has ` +
          `${scenario.script.length} turn(s). Add a turn to tools/scenarios/${scenario.name}.json.`,
      );
    }
    return { turn, responseId: `${scenario.name}-turn-${index + 1}` };
  };
  return {
    specificationVersion: 'v4',
    provider: SCRIPTED_PROVIDER,
    modelId: scriptedModelName(scenario.name),
    supportedUrls: {},
    async doGenerate(options) {
      const { turn, responseId } = turnOf(options);
      return {
        content: turnContent(turn, options.prompt),
        finishReason: finishReasonOf(turn),
        usage: NO_USAGE,
        response: { id: responseId, modelId: scriptedModelName(scenario.name) },
        warnings: [],
      };
    },
    async doStream(options) {
      const parts = streamParts({ ...turnOf(options), prompt: options.prompt });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
