/**
 * The head of an exported repro: a comment in Loopscope's own words, and `recording`, a
 * constant with everything the recording says about itself — its title and source, how each
 * call ended, where it shows a genkit bug, what was left out.
 *
 * Recorded text never goes into a comment: a span name or error message holding a line
 * terminator would end a `//` comment (or `*\/` a block comment) and the rest of it would run
 * when the user runs the file. So the comment says generic things and points at `recording`,
 * whose strings go through the one literal encoder (code-literal.ts) like all recorded data.
 */
import { codeLiteral } from '../../../replay/code-literal';
import { GENKIT_BUG_TITLES, type RecordedGenkitBug } from '../read/recorded-bugs';
import type { Recording } from '../read/recording';
import { describeOutcome } from '../../../replay/replay-report';

export interface ReproHeaderInput {
  recording: Recording;
  bugs: RecordedGenkitBug[];
  /** The file imports the local tool modules. */
  usesLocalTools: boolean;
  /** Recorded tools that stay stubs (all of them without local modules). */
  stubbed: string[];
  title?: string;
  /** Where the recording came from (a file path). */
  source?: string;
  /** The name the file will be saved under, for the run instruction. */
  fileName?: string;
}

/** A file name a shell and a comment take as it is; anything else is named generically. */
const PLAIN_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Wraps a header line at about 96 columns; continuation lines keep its leading spaces. */
function wrap(line: string, width = 96): string[] {
  if (line.length <= width) return [line];
  const lead = /^ */.exec(line)![0];
  const lines: string[] = [];
  let current = '';
  for (const word of line.slice(lead.length).split(' ')) {
    if (current !== '' && lead.length + current.length + 1 + word.length > width) {
      lines.push(lead + current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, lead + current];
}

function counted({ count, one, many }: { count: number; one: string; many: string }): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The names of the middleware the recorded generate calls ran (recorded text). */
function middlewareNames(recording: Recording): string[] {
  const uses = recording.steps.flatMap((step) => (step.kind === 'generate' && Array.isArray(step.options.use) ? step.options.use : []));
  return [...new Set(uses.map((use) => (typeof use === 'object' && use !== null && 'name' in use ? String(use.name) : 'unnamed')))];
}

/**
 * The header comment. Every word in it is Loopscope's or a number: recorded text is only
 * pointed at (`recording.outcomes`), never copied in.
 */
export function reproHeaderSource(input: ReproHeaderInput): string[] {
  const { recording } = input;
  const generates = recording.steps.filter((step) => step.kind === 'generate').length;
  const alone = recording.steps.length - generates;
  const calls = [generates > 0 ? counted({ count: generates, one: 'generate call', many: 'generate calls' }) : '', alone > 0 ? counted({ count: alone, one: 'tool run on its own', many: 'tool runs on their own' }) : ''].filter(Boolean).join(' and ');
  const tools = !input.usesLocalTools
    ? 'the tools are stubs that return, interrupt or throw as they did in the recording.'
    : `the tools are your local tool modules, imported below${input.stubbed.length > 0 ? ' (those in `recording.stubbed`: stubs playing back the recording)' : ''}.`;
  const fileName = input.fileName ?? 'repro.ts';
  const lines = [
    `Repro of a genkit run recorded by Loopscope: ${calls}, ${counted({ count: recording.spanCount, one: 'span', many: 'spans' })}. Where it came from${input.title ? ', its title' : ''} and how each call ended are in \`recording\` below.`,
    '',
    `It makes the recorded calls again with ${input.usesLocalTools ? 'genkit (`genkit/beta`)' : 'plain genkit (`genkit/beta`) and nothing else'}: ${recording.models.size > 0 ? 'a scripted model answers each model request with the recorded response, in order, and ' : ''}${tools}`,
    '',
    input.usesLocalTools ? 'Run it where it was written (the imports of the tool modules are relative to it):' : 'Run it from a folder where genkit 1.42 is installed (npm install genkit@1.42.0 tsx):',
    `  npx tsx ${PLAIN_FILE_NAME.test(fileName) ? fileName : '<this file>'}`,
    '',
    'It prints one line per call; `recording.outcomes` lists how they ended in the recording.',
  ];
  input.bugs.forEach((bug, index) => {
    const evidence = bug.showsInToolResponses ? ' After that call, this file prints what the model got.' : '';
    lines.push('', `It shows genkit 1.42 bug ${bug.bug}: ${GENKIT_BUG_TITLES[bug.bug]}.`, `  Where: \`recording.bugs[${index}]\`.${evidence}`);
  });
  if (middlewareNames(recording).length > 0) lines.push('', 'Left out: the middleware the recorded calls ran (`recording.leftOut`), which is not part of genkit.');
  lines.push('', 'Recorded text (names, inputs, outputs, messages) appears only in string literals, never in a comment.');
  return ['/**', ...lines.flatMap((line) => wrap(line)).map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'];
}

/** `export const recording = {…};`: what the header points at, as encoded literals. */
export function recordingConstantSource(input: ReproHeaderInput): string[] {
  const about: Record<string, unknown> = {};
  if (input.title) about.title = input.title;
  about.source = input.source ?? 'a recording';
  about.outcomes = input.recording.steps.map((step) => `${step.label}: ${describeOutcome(step.outcome)}`);
  if (input.bugs.length > 0) about.bugs = input.bugs.map((bug) => bug.summary);
  const middleware = middlewareNames(input.recording);
  if (middleware.length > 0) about.leftOut = middleware;
  if (input.usesLocalTools && input.stubbed.length > 0) about.stubbed = input.stubbed;
  return ['/** What the recording says about itself. */', `export const recording = ${codeLiteral(about, 'export const recording = ')};`];
}
