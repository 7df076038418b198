import type { ToolInfo } from '../../contract/tool-info';
import type { RunnerFacts } from '../../runtimes/resume-target';
import type { AppContext } from '../app-context-ports';

/**
 * What this server's runners have, for answering a paused call of `runtime`: the node runners'
 * tools, models and scenarios, and — only when `runtime` runs in a host of its own (the genkit Go
 * runner) — that host's scenarios and tools, which may build and start it.
 */
export async function runnerFacts(options: { context: Pick<AppContext, 'supervisor' | 'goRunner' | 'providers'>; runtime: string }): Promise<RunnerFacts> {
  const { supervisor, goRunner, providers } = options.context;
  const toolsByRuntime: Record<string, readonly ToolInfo[]> = { ...supervisor.status.toolsByRuntime };
  const scenarios = [...supervisor.status.scenarios];
  if (goRunner && goRunner.runtime === options.runtime) {
    scenarios.push(...(await goRunner.scenarios()).scenarios);
    const tools = await goRunner.tools();
    if (tools) toolsByRuntime[goRunner.runtime] = tools.map((tool) => ({ description: '', file: 'go/', ...tool }));
  }
  return { toolsByRuntime, models: supervisor.status.models, scenarios, ...(providers ? { providers: providers.availability() } : {}) };
}
