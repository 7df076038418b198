/**
 * genkit JS in the node runner (lib/runner/runner-engine.ts): one real `genkit/beta` instance
 * with the provider plugins this runner's environment sets, the tools of tools/*.ts, a scripted
 * model per genkit scenario, Loopscope's hand-written model, and genkit's own middleware for
 * stepping and the tool time limit. It also plays a resume of any recorded genkit call (a command
 * with no scenario, naming its recorded model).
 */
import { scriptedModelName } from '../../../contract/scenario';
import type { EngineLoadOptions, LoadedEngine, RunnerEngine } from '../../../runner/runner-engine';
import type { ReplayCommand } from '../../../runner/runner-protocol';
import { GENKIT_DIALECT_ID } from '../read/dialect-id';
import { HAND_WRITTEN_MODEL } from '../read/loopscope-markers';
import type { Recording } from '../read/recording';
import { genkitSpanStarts } from './genkit-span-starts';

export const genkitJsEngine: RunnerEngine = {
  runtime: GENKIT_DIALECT_ID,
  spanStarts: genkitSpanStarts,
  async load(options: EngineLoadOptions): Promise<LoadedEngine> {
    // genkit would start its own SDK (an older OTel generation) at its first span. It reads this
    // switch only there, so turning it off before genkit is imported is in time.
    const { disableGenkitOTelInitialization } = await import('genkit/tracing');
    disableGenkitOTelInitialization();
    // genkit is imported only now, after the runner's telemetry started: its tracer binds to that provider.
    const [{ genkit }, { loadToolModules }, { isGenkitScenario }, { defineScriptedModel }, { runGenerate }, stepping, { providerPlugins }] = await Promise.all([
      import('genkit/beta'),
      import('./load-tools'),
      import('../read/genkit-scenario'),
      import('./scripted-model'),
      import('./run-generate'),
      import('./genkit-step-middleware'),
      import('./provider-model'),
    ]);
    // The endpoint's and Gemini's plugins, as this runner's environment sets them (`openai-compatible/<model>`, `googleai/<model>`).
    const ai = genkit({ plugins: await providerPlugins(options.environment) });
    stepping.defineHandWrittenModel(ai);
    const tools = await loadToolModules(ai, options.toolsDir);
    const genkitScenarios = options.scenarios.filter(isGenkitScenario);
    const scenarios = new Map(genkitScenarios.map((scenario) => [scenario.name, scenario]));
    for (const scenario of genkitScenarios) defineScriptedModel(ai, scenario);
    const models = Object.keys(await ai.registry.listActions())
      .filter((key) => key.startsWith('/model/'))
      .map((key) => key.slice('/model/'.length));
    return {
      words: 'genkit',
      tools: tools.tools,
      models,
      problems: tools.problems,
      // Its scenarios, and a resume of a recorded genkit call (no scenario: the recorded model plays it).
      plays: (command) => command.scenario === '' || scenarios.has(command.scenario),
      generate: ({ command, toolTimeoutMs, stepper, abortSignal }) => runGenerate({ ai, scenarios, command, toolTimeoutMs, stepper, abortSignal }),
      checkDecision: ({ pause, decision }) => stepping.checkDecision({ ai, pause, decision }),
      async replay({ recording, command, toolsDir }: { recording: unknown; command: ReplayCommand; toolsDir: string }) {
        const [{ replayRecording }, { traceGenerate }] = await Promise.all([import('../replay/run-replay'), import('../../../runner/answer-link')]);
        return replayRecording(recording as Recording, {
          mode: command.mode,
          overrides: { modelResponses: new Map(command.overrides?.modelResponses ?? []), toolOutcomes: new Map(command.overrides?.toolOutcomes ?? []) },
          liveTools: command.liveTools ? (replayAi) => loadToolModules(replayAi, toolsDir) : undefined,
          traceGenerate,
        });
      },
      /**
       * One generate on the hand-written model: genkit compiles a JSON-schema validator (ajv) the
       * first time it validates a generate request and a model request, and V8 compiles the loop's
       * code — ≈340 ms of CPU that the first run on every fresh runner paid (bench/capture-overhead.bench.ts).
       * It runs no tools/ code.
       */
      async warmUp() {
        try {
          await ai.generate({ model: HAND_WRITTEN_MODEL, prompt: 'warm-up', config: { parts: [{ text: 'ready' }] } });
        } catch (error) {
          // Not being warm only makes the first run slower.
          console.error(`runner: the warm-up generate failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    };
  },
};

/** The scripted model of a genkit scenario, by name (a recording resumed here calls one of these). */
export { scriptedModelName };
