import type { RunningToolOfRun } from './runner-span-ledger';

function toolWords(tool: RunningToolOfRun): string {
  return `tool '${tool.name}'${tool.ref ? ` (ref ${tool.ref})` : ''}`;
}

function list(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * Which tools were running, said from the point of view of one run: its own tools, and
 * those of the runs it shared the runner with (named by run id).
 */
function runningToolsClause(runId: string, runningTools: readonly RunningToolOfRun[]): string {
  const own = runningTools.filter((tool) => tool.runId === runId).map(toolWords);
  const others = runningTools.filter((tool) => tool.runId !== runId).map((tool) => `${toolWords(tool)} of run ${tool.runId}`);
  const parts = [...(own.length > 0 ? [`${list(own)} of this run`] : []), ...others];
  if (parts.length === 0) return 'no tool was running';
  return `${list(parts)} ${parts.length === 1 && (own.length + others.length === 1) ? 'was' : 'were'} running${others.length > 0 ? ' (this run shared that runner)' : ''}`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The failure message of a run whose runner died: what happened to the runner, which run's
 * tool was executing (the tool spans that started and never ended, whatever runtime ran them:
 * runner-span-ledger.ts), and what was kept. `headline` is one sentence without its final
 * period: the exit, or why the server killed it. `stoppedByUser`: the server killed it because
 * the user stopped this run and the runner did not let the run go.
 */
export function describeRunnerDeath(options: { headline: string; killedByServer: boolean; stoppedByUser?: boolean; runId: string; runningTools: readonly RunningToolOfRun[] }): string {
  const running = runningToolsClause(options.runId, options.runningTools);
  if (options.stoppedByUser) return `${options.headline}. ${capitalize(running)}. Its finished spans were kept and its open spans closed as stopped; a fresh runner replaces the killed one.`;
  const kept = 'Its finished spans were kept and its open spans closed as failed';
  if (options.killedByServer) {
    return `${options.headline}. ${capitalize(running)}. The run was stopped; ${kept.charAt(0).toLowerCase()}${kept.slice(1)}.`;
  }
  return `${options.headline} while ${running} — a tool may have called process.exit, crashed or run out of memory. ${kept}; a fresh runner has been started.`;
}
