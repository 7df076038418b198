import type { ScenarioListResponse } from '../../contract/runner-status';
import type { ListedTool, ToolInfo } from '../../contract/tool-info';
import { exampleFromSchema } from '../../loop/example-from-schema';
import type { AppContext } from '../app-context-ports';

/**
 * `GET /api/scenarios`: the scenarios and tools the runner loaded, with load problems; each
 * tool with example values from its schemas, which the step panel's editors start from.
 */
export async function scenarioList(context: Pick<AppContext, 'supervisor' | 'goRunner' | 'forwarder'>): Promise<ScenarioListResponse> {
  const { supervisor } = context;
  supervisor.start();
  await supervisor.whenReady(15_000);
  const { scenarios, toolsByRuntime, problems, state } = supervisor.status;
  const listed = (tool: ToolInfo) => ({ ...tool, inputExample: exampleFromSchema(tool.inputSchema), outputExample: exampleFromSchema(tool.outputSchema) });
  const listedByRuntime: Record<string, ListedTool[]> = {};
  for (const [runtime, tools] of Object.entries(toolsByRuntime)) listedByRuntime[runtime] = tools.map(listed);
  // genkit Go's tools once its runner has started, as the step panel of a Go run edits with them.
  if (context.goRunner.status.state === 'ready') listedByRuntime[context.goRunner.runtime] = context.goRunner.status.tools.map((tool) => listed({ description: '', ...tool, file: 'go/' }));
  // genkit Go's scenarios come from tools/go/scenarios/ (its runner starts on the first run).
  const go = await context.goRunner.scenarios();
  return {
    scenarios: [...scenarios, ...go.scenarios],
    toolsByRuntime: listedByRuntime,
    problems: [...problems, ...go.problems],
    runner: state,
    goRunner: {
      state: context.goRunner.status.state,
      ...(context.goRunner.status.problem ? { problem: context.goRunner.status.problem } : {}),
      tools: context.goRunner.status.tools.map((tool) => ({ name: tool.name, ...(tool.resumeType ? { resumeType: tool.resumeType } : {}) })),
    },
    ...(context.forwarder ? { forwarding: context.forwarder.status() } : {}),
  };
}
