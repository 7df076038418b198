import { printableText } from '../trace/printable-text';
import type { SpanRef, StepOutcome } from '../dialects/genkit-js/recording';

export type ReplayMode = 'strict' | 'lenient';

export type DivergenceKind =
  | 'model-request'
  | 'model-extra-call'
  | 'model-missing-call'
  | 'tool-input'
  | 'tool-extra-call'
  | 'tool-missing-call'
  | 'tool-outcome'
  | 'outcome';

/** One place where the replay did not do what the recording did. */
export interface Divergence {
  /** The chain step (0-based) and its label ("generate 2 (resume)"). */
  step: number;
  stepLabel: string;
  kind: DivergenceKind;
  /** Which call: "model call 2", "tool getWeather", "outcome". */
  call: string;
  /** Which field differs: a JSON path into the request, the tool input/output, or the outcome. */
  field: string;
  recorded: unknown;
  replayed: unknown;
  /** The recorded span of the call, when there is one (to highlight it in the recorded graph). */
  recordedSpan?: SpanRef;
  /** The replayed span of the call, when spans were captured (to highlight it in the replayed graph). */
  replayedSpan?: SpanRef;
  /** One sentence a person can read. */
  message: string;
}

export interface ReplayStepResult {
  index: number;
  label: string;
  kind: 'generate' | 'tool';
  recorded: StepOutcome;
  /** Absent when the chain stopped before this step (strict mode). */
  replayed?: StepOutcome;
  matched: boolean;
  modelCalls: { recorded: number; replayed: number };
  toolCalls: { recorded: number; replayed: number };
  /** How the history sent by a resume was obtained. */
  history?: 'replayed' | 'replayed-retry' | 'recorded';
}

export interface ReplayReport {
  /** True when every step ended as recorded and no call diverged. */
  matched: boolean;
  mode: ReplayMode;
  liveTools: boolean;
  steps: ReplayStepResult[];
  divergences: Divergence[];
  /** Strict mode: the step the replay stopped at (its first divergence). */
  stoppedAtStep?: number;
  durationMs: number;
  /** Spans in the recording. */
  spanCount: number;
  /** Filled by the runner: the traces the replay recorded. */
  replayedTraceIds?: string[];
}

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
