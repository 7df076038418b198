import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
// The TypeScript parser tsx itself runs the generated files with.
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTraceText } from '../../../store/load-trace-file';
import { printableText } from '../../../spans/printable-text';
import { exportRepro, reproFileName } from './export-repro';
import type { Recording, ReplayStep } from '../read/recording';
import { readRecording } from '../replay/read-genkit-recording';
import { describeOutcome } from '../../../replay/replay-report';
import { HOSTILE_MARKER, HOSTILE_TEXT, hostileTrace } from '../../../replay/testing/hostile-trace';

const run = promisify(execFile);

/** Real-genkit fixtures covering every kind of recorded string a repro writes. */
const FIXTURES = {
  // Restart with replaced input: interrupt and resumed metadata, schemas, a bug summary built from inputs.
  bug2: 'lib/graph/__fixtures__/bug2-replace-input.otlp.json',
  // A retry (comments naming calls), genkit's own error message holding a tool name and a ref.
  bug3: 'lib/graph/__fixtures__/bug3-mutated-messages.otlp.json',
  // Respond parts with outputs, and the printer of what the model got.
  bug4: 'lib/graph/__fixtures__/bug4-no-ref.otlp.json',
  // A tool run on its own: a constant named after the tool, a label holding its name.
  bug5: 'lib/graph/__fixtures__/bug5-tool-alone.otlp.json',
  // A tool that throws: its recorded message is played back.
  toolError: 'lib/graph/__fixtures__/tool-error.otlp.json',
} as const;
type Fixture = keyof typeof FIXTURES;

interface Case {
  fixture: Fixture;
  /** Tool names genkit can register (no `/`), or HOSTILE_TEXT whole. */
  registrable: boolean;
}

const CASES: Record<string, Case> = {
  ...Object.fromEntries((Object.keys(FIXTURES) as Fixture[]).map((fixture) => [fixture, { fixture, registrable: true }])),
  'bug2, slashes in tool names': { fixture: 'bug2', registrable: false },
  'bug5, slashes in tool names': { fixture: 'bug5', registrable: false },
};

interface Exported {
  recording: Recording;
  source: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

// Inside the project (git-ignored), so the generated file's `import "genkit/beta"` resolves.
const scratch = path.resolve('.loopscope-test', `export-repro-hostile-${process.pid}-${Date.now()}`);
const exported = new Map<string, Exported>();

/**
 * Tools run on their own (each becomes a constant named after it) whose names clash: with the
 * file's own `playTool` helper, with each other once reduced to letters and digits, or start
 * with a digit.
 */
const CLASHING_NAMES = ['play', 'a-b', 'a_b', '1st', 'délai', 'class', 'step'];
function clashingRecording(): Recording {
  const steps: ReplayStep[] = CLASHING_NAMES.map((name, index) => {
    const ids = { traceId: 'a'.repeat(32), spanId: index.toString(16).padStart(16, '0') };
    const output = { ran: name };
    return { kind: 'tool', index, ...ids, label: `${name} run on its own`, name, input: { n: index }, outcome: { kind: 'finished', finishReason: 'stop', message: output }, toolExecutions: [{ ...ids, name, input: { n: index }, restarted: false, outcome: { kind: 'output', output } }] };
  });
  return { steps, toolDefinitions: new Map(CLASHING_NAMES.map((name) => [name, { name }])), models: new Set(), spanCount: steps.length };
}

async function runFile(file: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return run(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, exitCode: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', exitCode: error.code ?? 1 }),
  );
}

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  const fileName = `${HOSTILE_TEXT}.otlp.json`;
  const cases = Object.entries(CASES).map(([name, { fixture, registrable }]) => ({
    name,
    recording: readRecording(parseTraceText(hostileTrace(readFileSync(FIXTURES[fixture], 'utf8'), { registrable }), fileName)),
    // The file name, the source and the title (a saved file's description) are recorded text too.
    options: { title: `A title${HOSTILE_TEXT}`, source: `traces/${fileName}`, fileName: reproFileName(fileName) + HOSTILE_TEXT },
  }));
  cases.push({ name: 'clashing names', recording: clashingRecording(), options: { title: '', source: 'clashing', fileName: 'clashing.ts' } });
  await Promise.all(
    cases.map(async ({ name, recording, options }, index) => {
      const source = exportRepro(recording, options);
      const file = path.join(scratch, `case-${index}.ts`);
      writeFileSync(file, source);
      exported.set(name, { recording, source, ...(await runFile(file)) });
    }),
  );
}, 90_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The repro prints recorded text as Loopscope does: characters a terminal would act on, escaped.
const recordedLines = (recording: Recording) => recording.steps.map((step) => printableText(`${step.label}: ${describeOutcome(step.outcome)}`));

/**
 * Checks that `stdout` is the recorded outcome of each call, in order, with nothing between
 * them but the evidence lines of bugs 2 and 4 (`  the model got: …`), and no raw line break
 * or control character from a recorded name on any line.
 */
function expectRecordedOutcomes(stdout: string, recording: Recording): void {
  let at = 0;
  for (const line of recordedLines(recording)) {
    const found = stdout.indexOf(`${line}\n`, at);
    expect(found, `${JSON.stringify(line)} in ${JSON.stringify(stdout.slice(at, at + 400))}`).toBeGreaterThanOrEqual(at);
    const between = stdout.slice(at, found);
    if (between !== '') expect(between.startsWith('  the model got: '), JSON.stringify(between.slice(0, 200))).toBe(true);
    at = found + line.length + 1;
  }
  const rest = stdout.slice(at);
  if (rest !== '') expect(rest.startsWith('  the model got: '), JSON.stringify(rest.slice(0, 200))).toBe(true);
  for (const printed of stdout.split('\n')) expect(printableText(printed), 'a printed line holds a raw control character').toBe(printed);
}

describe('exportRepro of traces whose every string is hostile', () => {
  it('the rewritten traces really carry the hostile text in names, inputs, outputs and messages', () => {
    const { recording } = exported.get('bug2')!;
    const tool = [...recording.toolDefinitions.values()][0];
    expect(tool.name).toContain(HOSTILE_MARKER);
    expect(tool.description).toContain(HOSTILE_TEXT);
    expect(JSON.stringify(tool.inputSchema)).toContain(JSON.stringify(HOSTILE_TEXT).slice(1, -1));
    expect([...recording.models][0]).toContain(HOSTILE_TEXT);
    expect(JSON.stringify(recording.steps[0].toolExecutions[0])).toContain(JSON.stringify(HOSTILE_TEXT).slice(1, -1));
    expect(exported.get('toolError')!.recording.steps[0].outcome).toMatchObject({ kind: 'error', message: expect.stringContaining(HOSTILE_TEXT) });
    expect(exported.get('bug5')!.recording.steps[0].label).toContain(HOSTILE_MARKER);
  });

  it.each(Object.keys(CASES))('%s: the file parses, and no recorded text is in a comment or raw', (name) => {
    const { source } = exported.get(name)!;
    // esbuild drops comments: recorded text in one would vanish from its output.
    const compiled = transformSync(source, { loader: 'ts' }).code;
    const markers = (text: string) => text.split(HOSTILE_MARKER).length - 1;
    expect(markers(source)).toBeGreaterThan(5);
    expect(markers(compiled)).toBe(markers(source));
    expect(source).not.toMatch(/[\r\u2028\u2029]/);
    expect(source).not.toMatch(/<\/?script/i);
    // No control character but the newline and no bidirectional override, anywhere.
    expect(source).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it.each(Object.entries(CASES).filter(([, { registrable }]) => registrable).map(([name]) => name))(
    '%s: running it prints exactly the recorded outcomes, runs nothing injected and exits 0',
    (name) => {
      const { recording, stdout, stderr, exitCode } = exported.get(name)!;
      expect(stdout + stderr).not.toContain('INJECTED');
      expect(exitCode, stderr).toBe(0);
      expectRecordedOutcomes(stdout, recording);
    },
  );

  it('bug2 and bug4 print what the model got: the hostile values as JSON, not as code', () => {
    for (const name of ['bug2', 'bug4']) {
      const { stdout } = exported.get(name)!;
      expect(stdout, name).toContain('  the model got: ');
      // The inputs and outputs are printed as JSON, and the line as data: no line break of theirs is printed raw.
      expect(stdout, name).toContain(printableText(JSON.stringify(HOSTILE_TEXT).slice(1, -1)));
    }
  });

  it('tool names genkit cannot register (a slash): the file still parses and runs nothing injected; genkit says the tool is not found', () => {
    const { recording, stdout, stderr, exitCode } = exported.get('bug2, slashes in tool names')!;
    expect(stdout + stderr).not.toContain('INJECTED');
    expect(exitCode, stderr).toBe(0);
    const tool = [...recording.toolDefinitions.keys()][0];
    // The first call fails in genkit's own words (its first line: the name holds line breaks);
    // the resume then continues a call that never got a response.
    expect(stdout).toBe(`generate 1: failed: NOT_FOUND: Tool ${tool.split('\n')[0]} …\ngenerate 2 (resume): failed: Cannot read properties of undefined (reading 'messages')\n`);
  });

  it('a tool run on its own with slashes in its name: played back by its stub, called directly, as recorded', () => {
    const { recording, stdout, stderr, exitCode } = exported.get('bug5, slashes in tool names')!;
    expect(stdout + stderr).not.toContain('INJECTED');
    expect(exitCode, stderr).toBe(0);
    expectRecordedOutcomes(stdout, recording);
  });

  it('identifiers made from clashing tool names are valid and distinct, and the file runs each tool as recorded', () => {
    const { recording, source, stdout, stderr, exitCode } = exported.get('clashing names')!;
    const constants = (source.match(/^const (\S+) = ai\.defineTool\(/gm) ?? []).map((line) => line.split(' ')[1]);
    expect(constants).toEqual(['playTool2', 'aBTool', 'aBTool2', '_1stTool', 'dLaiTool', 'classTool', 'stepTool']);
    expect(source).toContain('function playTool(');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toBe(`${recordedLines(recording).join('\n')}\n`);
  });

  it('identifiers made from hostile tool names are plain ASCII', () => {
    const constants = exported.get('bug5')!.source.match(/^const (\S+) = ai\.defineTool\(/gm) ?? [];
    expect(constants).toHaveLength(1);
    expect(constants[0]).toMatch(/^const transferMoneyHOSTILEProcessExit7Script[A-Za-z0-9]*Tool = ai\.defineTool\($/);
  });
});
