import type { ScenarioListResponse } from '../contract/runner-status';
import { exampleFromSchema } from '../resume/example-from-schema';
import type { AppContext } from './app-context';

/**
 * `GET /api/scenarios`: the scenarios and tools the runner loaded, with load problems; each
 * tool with example values from its schemas, which the step panel's editors start from.
 */
export async function scenarioList(context: Pick<AppContext, 'supervisor'>): Promise<ScenarioListResponse> {
  const { supervisor } = context;
  supervisor.start();
  await supervisor.whenReady(15_000);
  const { scenarios, tools, aiSdkTools, problems, state } = supervisor.status;
  const listed = (tool: (typeof tools)[number]) => ({ ...tool, inputExample: exampleFromSchema(tool.inputSchema), outputExample: exampleFromSchema(tool.outputSchema) });
  return {
    scenarios,
    tools: tools.map(listed),
    aiSdkTools: (aiSdkTools ?? []).map(listed),
    problems,
    runner: state,
  };
}
