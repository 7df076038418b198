/**
 * The Vercel AI SDK in the node runner (lib/runner/runner-engine.ts): its OpenTelemetry
 * integration registered once on the runner's tracer provider, the tools of tools/ai-sdk/ and
 * the AI SDK scenarios, each played by the real `generateText` on a scripted `LanguageModelV4`
 * (or the runner's OpenAI-compatible endpoint), stepped through the SDK's own middleware and
 * wrapped tools.
 */
import path from 'node:path';
import { scriptedModelName } from '../../../contract/scenario';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import type { LoadProblem } from '../../../contract/runner-status';
import { providerEndpointOf } from '../../../runner/provider-endpoint';
import type { EngineLoadOptions, LoadedEngine, RunnerEngine } from '../../../runner/runner-engine';
import { AI_SDK_DIALECT_ID } from '../read/dialect-id';
import type { AiSdkRecording } from '../read/recording';
import { aiSdkSpanStarts } from './ai-sdk-span-starts';

export const aiSdkEngine: RunnerEngine = {
  runtime: AI_SDK_DIALECT_ID,
  spanStarts: aiSdkSpanStarts,
  async load(options: EngineLoadOptions): Promise<LoadedEngine> {
    const [{ registerTelemetry }, { OpenTelemetry }, { loadAiSdkTools, aiSdkToolInfos }, { runAiSdkGenerate }, { checkAiSdkScenario }, { checkAiSdkDecision }, { toolSetOf }] = await Promise.all([
      import('ai'),
      import('@ai-sdk/otel'),
      import('./load-ai-sdk-tools'),
      import('./run-ai-sdk-generate'),
      import('./check-ai-sdk-scenario'),
      import('./check-ai-sdk-decision'),
      import('./run-ai-sdk-call'),
    ]);
    // Spans on the global tracer provider the runner set up, so they leave as genkit's do.
    registerTelemetry(new OpenTelemetry());
    const catalog = await loadAiSdkTools(path.join(options.toolsDir, 'ai-sdk'));
    const scenarios = new Map<string, AiSdkScenario>();
    const problems: LoadProblem[] = catalog.problems.map((problem) => ({ ...problem, file: `ai-sdk/${problem.file}` }));
    for (const scenario of options.scenarios) {
      if (scenario.runtime !== AI_SDK_DIALECT_ID) continue;
      scenarios.set(scenario.name, scenario);
      for (const message of checkAiSdkScenario({ scenario, catalog })) problems.push({ file: `scenarios/${scenario.name}.json`, message });
    }
    const endpoint = providerEndpointOf(options.environment);
    const approvalSecret = options.environment.LOOPSCOPE_APPROVAL_SECRET;
    const scenarioOf = (name: string) => scenarios.get(name);
    return {
      words: 'the AI SDK',
      tools: await aiSdkToolInfos(catalog),
      // A resume of an AI SDK trace calls its scenario's scripted model.
      models: [...scenarios.keys()].map(scriptedModelName),
      problems,
      plays: (command) => scenarios.has(command.scenario),
      generate: ({ command, toolTimeoutMs, stepper, abortSignal }) =>
        runAiSdkGenerate({ scenario: scenarioOf(command.scenario)!, catalog, command, toolTimeoutMs, approvalSecret, stepper, endpoint, abortSignal }),
      checkDecision: ({ command, pause, decision }) => checkAiSdkDecision({ tools: toolSetOf({ scenario: scenarioOf(command.scenario)!, catalog }), pause, decision }),
      async replay({ recording, command }) {
        const [{ replayAiSdkRecording }, { traceGenerate }] = await Promise.all([import('../replay/replay-ai-sdk'), import('../../../runner/answer-link')]);
        return replayAiSdkRecording(recording as AiSdkRecording, {
          mode: command.mode,
          overrides: { modelResponses: new Map(command.overrides?.modelResponses ?? []), toolOutcomes: new Map(command.overrides?.toolOutcomes ?? []) },
          // Live tools are tools/ai-sdk/'s.
          liveTools: command.liveTools ? catalog.tools : undefined,
          traceGenerate,
        });
      },
    };
  },
};
