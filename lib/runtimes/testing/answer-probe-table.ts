/**
 * The table of a framework's recorded answer probes that its guide carries
 * (docs/guides/<runtime>.md, between the markers below): one row per probe — the answer, whether
 * the framework accepted it, the tools that then ran, how the run ended, the framework's exact
 * error, and the probe's note. scripts/fixtures/record-answer-probes.ts writes it there from what it
 * recorded, and answer-probe-table.test.ts checks that every guide still carries the table of the
 * recorded fixture, so a guide never states what the framework did not do.
 */
import { LoopscopeError } from '../../errors';
import type { RecordedAnswerProbe } from './answer-probes';

/** The markers around the table in a guide (the begin marker says who writes it). */
export const TABLE_BEGIN = '<!-- answer-probes: begin (written by scripts/fixtures/record-answer-probes.ts from the recorded answer probes; do not edit by hand) -->';
export const TABLE_END = '<!-- answer-probes: end -->';

/** Text as one table cell: on one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

/** Text as code in a cell, fenced by more backticks than it holds (a message may hold `<tag>`-like text or backticks). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return cell(`${fence}${padded}${fence}`);
}

/** The Markdown table of recorded probes, in their order; the note column only when a probe has a note. */
export function answerProbeTable(probes: readonly RecordedAnswerProbe[]): string {
  const withNotes = probes.some((probe) => probe.note !== undefined);
  const header = ['answer', 'verdict', 'tools that ran', 'outcome', 'error (exact)', ...(withNotes ? ['note'] : [])];
  const rows = probes.map(({ name, note, result }) => {
    const tools = result.toolsRun.map((tool) => `${tool.tool ?? '?'}${tool.toolCallId ? ` (${tool.toolCallId})` : ''}: ${tool.status}`).join(', ');
    const error = result.error ? code(`${result.error.type}: ${result.error.message}`) : '';
    return [cell(name), result.accepted ? 'accepted' : '**refused**', cell(tools || '—'), cell(result.outcome ?? '—'), error, ...(withNotes ? [cell(note ?? '')] : [])];
  });
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/**
 * The guide's text with the table between its markers replaced.
 * @throws LoopscopeError FAILED_PRECONDITION when the guide lacks the markers (`guide`: its path, for the message).
 */
export function withAnswerProbeTable(options: { text: string; table: string; guide: string }): string {
  const begin = options.text.indexOf(TABLE_BEGIN);
  const end = options.text.indexOf(TABLE_END, begin);
  if (begin < 0 || end < 0) throw new LoopscopeError('FAILED_PRECONDITION', `${options.guide} has no ${TABLE_BEGIN} … ${TABLE_END} markers to write the answer-probe table between`);
  return `${options.text.slice(0, begin + TABLE_BEGIN.length)}\n${options.table}\n${options.text.slice(end)}`;
}

/** The table a guide carries between its markers, or undefined without them. */
export function answerProbeTableIn(text: string): string | undefined {
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END, begin);
  return begin < 0 || end < 0 ? undefined : text.slice(begin + TABLE_BEGIN.length, end).trim();
}
