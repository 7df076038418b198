import { printableText } from '../spans/printable-text';
import type { Divergence, ReplayReport, StepOutcome } from '../contract/replay';

// The report travels to the page and the CLI's --json: its one definition is the contract's.
export type { Divergence, ReplayMode, ReplayReport, ReplayStepResult } from '../contract/replay';
export type DivergenceKind = Divergence['kind'];

function brief(value: unknown): string {
  if (value === '(missing)') return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** The first line of a message, cut at 200 characters (genkit's schema errors run to dozens of lines). */
function firstLine(message: string): string {
  const line = message.split('\n')[0];
  const cut = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  return cut.length < message.length ? `${cut.replace(/…$/, '')} …` : cut;
}

export function describeOutcome(outcome: StepOutcome | undefined): string {
  if (!outcome) return 'not replayed';
  if (outcome.kind === 'interrupted') return 'interrupted (paused for an answer)';
  if (outcome.kind === 'stopped') return 'stopped at the first divergence (strict)';
  if (outcome.kind === 'error') return `failed: ${outcome.message === '' ? '(empty message)' : firstLine(outcome.message)}`;
  return `finished (${outcome.finishReason})`;
}

/** The plain-text report the CLI prints. */
export function renderReplayText(report: ReplayReport): string {
  const lines: string[] = [];
  const verdict = report.matched ? 'MATCH' : 'DIVERGED';
  lines.push(`replay: ${verdict} — ${report.steps.length} step(s), ${report.divergences.length} divergence(s), ${report.mode} mode, ${report.liveTools ? 'live tools' : 'recorded tools'}, ${Math.round(report.durationMs)} ms`);
  for (const step of report.steps) {
    const mark = step.replayed === undefined ? '·' : step.matched ? '✓' : '✗';
    lines.push(`  ${mark} ${step.label}: recorded ${describeOutcome(step.recorded)}; replayed ${describeOutcome(step.replayed)} (model calls ${step.modelCalls.replayed}/${step.modelCalls.recorded}, tool calls ${step.toolCalls.replayed}/${step.toolCalls.recorded})`);
  }
  const first = report.divergences[0];
  if (first) {
    lines.push('');
    lines.push(`first divergence: ${first.stepLabel}, ${first.call}, field ${first.field}`);
    lines.push(`  recorded: ${brief(first.recorded)}`);
    lines.push(`  replayed: ${brief(first.replayed)}`);
    lines.push(`  ${first.message}`);
    if (report.divergences.length > 1) lines.push(`  (${report.divergences.length - 1} more; --json lists them all)`);
  }
  // Recorded names and texts are data: nothing in them may act on the terminal.
  return lines.map(printableText).join('\n');
}
