/**
 * The toy loop in the node runner (lib/runner/runner-engine.ts): its scenarios played by the toy
 * loop on their scripted model with the toy's tools, a paused call answered by a generate command
 * that carries the history and the answers (`resume.respond`), and its recordings replayed.
 * It has no step hooks: a stepped run is refused.
 */
import type { EngineGenerateResult, LoadedEngine, RunnerEngine } from '../../../runner/runner-engine';
import type { GenerateCommand } from '../../../runner/runner-protocol';
import { traceGenerate, type SpanRef } from '../../../runner/answer-link';
import { scriptedModelName } from '../../../contract/scenario';
import { TOY_DIALECT_ID } from '../read/dialect-id';
import { TOY, type ToyMessage } from '../read/toy-words';
import type { ToyRecording } from '../read/recording';
import { playToyLoop, ToyLoopError } from './play-toy-loop';
import { scriptedToyModel, TOY_SCENARIOS, type ToyScenario } from './toy-scenarios';
import { runToyTool, TOY_TOOL_DEFINITIONS, TOY_TOOL_INFOS } from './toy-tools';

async function generate({ scenario, command, abortSignal }: { scenario: ToyScenario; command: GenerateCommand; abortSignal: AbortSignal }): Promise<EngineGenerateResult> {
  const model = scriptedToyModel(scenario);
  if (command.model !== undefined && command.model !== model.name) return { failure: { message: `The toy loop has no model "${command.model}" (scenario ${scenario.name} plays ${model.name}).`, status: 'NOT_FOUND' } };
  let rootSpan: SpanRef | undefined;
  try {
    const result = await traceGenerate({ answers: command.answers, onRootSpan: (root) => (rootSpan = root) }, () =>
      playToyLoop({
        model,
        runTool: runToyTool,
        tools: TOY_TOOL_DEFINITIONS,
        messages: (command.messages as ToyMessage[] | undefined) ?? [{ role: 'user', text: scenario.prompt }],
        ...(command.resume ? { answers: command.resume } : {}),
        abortSignal,
      }),
    );
    return {
      rootSpan,
      outcome:
        result.status === 'done'
          ? { finishReason: 'done', text: result.text, interrupts: [], messages: result.messages }
          : { finishReason: 'paused', interrupts: result.waiting, messages: result.messages },
    };
  } catch (error) {
    return { rootSpan, failure: { message: error instanceof Error ? error.message : String(error), ...(error instanceof ToyLoopError ? { status: error.code, name: error.name } : {}) } };
  }
}

export const toyEngine: RunnerEngine = {
  runtime: TOY_DIALECT_ID,
  spanStarts: {
    // Its spans carry all of their words from the start: what a step is, its tool and request, its model.
    attributes: [TOY.kind, TOY.tool, TOY.ref, TOY.model],
    // Its model and its tools are its own functions (toy-tools.ts), never code from tools/.
    runsCode: () => false,
  },
  async load(): Promise<LoadedEngine> {
    const scenarios = new Map(TOY_SCENARIOS.map((scenario) => [scenario.name, scenario]));
    return {
      words: 'the toy loop',
      tools: TOY_TOOL_INFOS,
      models: TOY_SCENARIOS.map((scenario) => scriptedModelName(scenario.name)),
      problems: [],
      plays: (command) => scenarios.has(command.scenario),
      generate: async ({ command, stepper, abortSignal }) => {
        if (stepper) return { failure: { message: 'The toy loop does not run step by step: run it without a mode.', status: 'FAILED_PRECONDITION' } };
        return generate({ scenario: scenarios.get(command.scenario)!, command, abortSignal });
      },
      checkDecision: async () => [],
      async replay({ recording, command }) {
        const { replayToyRecording } = await import('../replay/replay-toy');
        return replayToyRecording(recording as ToyRecording, {
          mode: command.mode,
          liveTools: command.liveTools,
          overrides: { modelResponses: new Map(command.overrides?.modelResponses ?? []), toolOutcomes: new Map(command.overrides?.toolOutcomes ?? []) },
          traceGenerate,
        });
      },
    };
  },
};
