/**
 * The toy loop's tools: plain functions, and `approve`, which is no function — the loop pauses on
 * it until the call is answered. Every run of a tool function is counted, so a test can tell a
 * replay that played tools back from one that ran them.
 */
import type { ToolInfo } from '../../../contract/tool-info';
import type { RecordedToolDefinition } from '../../../loop/resume-model';
import { PAUSING_TOOL, type ToyRequest } from '../read/toy-words';

export type ToyToolOutcome = { kind: 'output'; output: unknown } | { kind: 'error'; message: string };

const FUNCTIONS: Record<string, (input: Record<string, unknown>) => unknown> = {
  lookup: () => ({ mm: 3 }),
  forecast: (input) => ({ sky: 'grey', days: input.days }),
  notify: () => {
    throw new Error('pager is down');
  },
};

/** The tools the toy loop offers its model, as a recorded definition (what its loop span records). */
export const TOY_TOOL_DEFINITIONS: readonly RecordedToolDefinition[] = [
  { name: 'lookup', description: 'Looks up the rain of a place.' },
  { name: 'forecast', description: 'The sky for the next days.' },
  { name: 'notify', description: 'Pages a team.' },
  { name: PAUSING_TOOL, description: 'Waits for a person to answer true or false.' },
];

/** The same, as the runner lists its tools. */
export const TOY_TOOL_INFOS: readonly ToolInfo[] = TOY_TOOL_DEFINITIONS.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  file: 'lib/runtimes/toy/run/toy-tools.ts',
  ...(tool.name === PAUSING_TOOL ? { restartable: false } : {}),
}));

let executions = 0;

/** How many times a toy tool function ran in this process. */
export function toyToolExecutions(): number {
  return executions;
}

/** Runs a tool function: its output, or why it failed (a tool that does not exist fails). */
export async function runToyTool(request: ToyRequest): Promise<ToyToolOutcome> {
  const run = FUNCTIONS[request.name];
  if (!run) return { kind: 'error', message: `The toy loop has no tool named ${request.name}.` };
  executions += 1;
  try {
    return { kind: 'output', output: await run((request.input ?? {}) as Record<string, unknown>) };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
