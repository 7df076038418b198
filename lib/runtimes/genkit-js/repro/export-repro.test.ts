import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../../store/load-trace-file';
import { codeLiteral } from '../../../replay/code-literal';
import { exportRepro, reproFileName } from './export-repro';
import type { Recording } from '../read/recording';
import { readRecording } from '../replay/read-genkit-recording';
import { describeOutcome } from '../../../replay/replay-report';

const run = promisify(execFile);

const FILES = {
  restart: 'traces/restart-after-approval.json',
  pending: 'traces/parallel-pending-output.json',
  bug1: 'lib/graph/__fixtures__/bug1-restart-reinterrupts.otlp.json',
  bug3: 'lib/graph/__fixtures__/bug3-mutated-messages.otlp.json',
  bug4: 'lib/graph/__fixtures__/bug4-no-ref.otlp.json',
  bug5: 'lib/graph/__fixtures__/bug5-tool-alone.otlp.json',
  // genkit's schema error runs to 30 lines: the repro prints its first line, as describeOutcome does.
  invalidInput: 'lib/graph/__fixtures__/invalid-input.otlp.json',
} as const;
type Case = keyof typeof FILES;

interface Exported {
  recording: Recording;
  source: string;
  stdout: string;
  exitCode: number;
}

// Inside the project (git-ignored), so the generated file's `import "genkit/beta"` resolves.
const scratch = path.resolve('.loopscope-test', `export-repro-${process.pid}-${Date.now()}`);
const exported = new Map<Case, Exported>();

/** Stdout without the evidence lines (indented): one line per call. */
const outcomeLines = (stdout: string) => stdout.split('\n').filter((line) => line !== '' && !line.startsWith('  '));
const recordedLines = (recording: Recording) => recording.steps.map((step) => `${step.label}: ${describeOutcome(step.outcome)}`);

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  // One child per file, all at once: each pays node + tsx + genkit start-up (~1.5 s).
  await Promise.all(
    (Object.keys(FILES) as Case[]).map(async (name) => {
      const recording = readRecording(await loadTraceFile(FILES[name]));
      const source = exportRepro(recording, { source: FILES[name] });
      const file = path.join(scratch, `${name}.ts`);
      writeFileSync(file, source);
      const result = await run(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 }).then(
        ({ stdout }) => ({ stdout, exitCode: 0 }),
        (error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`, exitCode: error.code ?? 1 }),
      );
      exported.set(name, { recording, source, ...result });
    }),
  );
}, 60_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('exportRepro: the generated file run with tsx', () => {
  it.each(Object.keys(FILES) as Case[])('%s prints the recorded outcome of every call and exits 0', (name) => {
    const { recording, stdout, exitCode } = exported.get(name)!;
    expect(exitCode, stdout).toBe(0);
    expect(outcomeLines(stdout)).toEqual(recordedLines(recording));
  });

  it('bug 1: the restart that interrupts again fails with the TypeError, with plain genkit', () => {
    expect(outcomeLines(exported.get('bug1')!.stdout)).toEqual([
      'generate 1: interrupted (paused for an answer)',
      "generate 2 (resume): failed: Cannot read properties of undefined (reading 'tools')",
    ]);
  });

  it("bug 3: the retry, sent the same messages array, fails on the stripped pendingOutput", () => {
    const { source, stdout } = exported.get('bug3')!;
    expect(outcomeLines(stdout)[1]).toBe('generate 2 (resume): finished (stop)');
    expect(outcomeLines(stdout)[2]).toMatch(/^generate 3 \(resume\): failed: INVALID_ARGUMENT: Unresolved tool request 'lookupAccount#la1' was not handled/);
    // The retry reuses the very array of the first resume, as a caller retrying does.
    expect(source).toContain('const history2 = r1!.messages;');
    expect(source.match(/messages: history2,/g)).toHaveLength(2);
  });

  it('bug 4: both ref-less approvals reach the model with the first answer', () => {
    const { stdout } = exported.get('bug4')!;
    const got = stdout.split('\n').filter((line) => line.startsWith('  the model got: askApproval'));
    expect(got).toEqual([
      '  the model got: askApproval {"question":"Refund order A-1?"} → {"approved":true,"by":"alice"}',
      '  the model got: askApproval {"question":"Refund order B-2?"} → {"approved":true,"by":"alice"}',
    ]);
    expect(stdout).not.toContain('"by":"bob"');
  });

  it('bug 5: the interrupting tool run on its own fails with an empty message', () => {
    expect(outcomeLines(exported.get('bug5')!.stdout)).toEqual(['transferMoney run on its own: failed: (empty message)']);
  });

  it('prints one line per call, also for a multi-line genkit error', () => {
    expect(exported.get('invalidInput')!.stdout).toBe('generate 1: failed: INVALID_ARGUMENT: Schema validation failed. Parse Errors: …\n');
  });
});

describe('exportRepro: the generated source', () => {
  it('imports genkit/beta and nothing from Loopscope', () => {
    for (const { source } of exported.values()) {
      const imports = source.split('\n').filter((line) => /^import\b/.test(line));
      expect(imports).toHaveLength(1);
      expect(imports[0]).toMatch(/^import \{ genkit[^}]*\} from "genkit\/beta";$/);
    }
  });

  it('names in its header how to run it and the genkit bug it shows; where it came from, in the recording constant', () => {
    const header = (name: Case) => exported.get(name)!.source.split('*/')[0];
    // Recorded text (the source path, outcomes, bug details, middleware names) is data, not comment.
    const about = (name: Case) => /\nexport const recording = \{\n[\s\S]*?\n\};\n/.exec(exported.get(name)!.source)?.[0] ?? '';
    expect(about('bug1')).toContain(`"source": "${FILES.bug1}",`);
    expect(about('bug1')).toContain(`"generate 2 (resume): failed: Cannot read properties of undefined (reading 'tools')",`);
    expect(about('bug1')).toContain('"generate 2 (resume) restarts lockVault, which interrupts again, and genkit fails with');
    expect(header('bug1')).toContain('npx tsx repro.ts');
    expect(header('bug1')).toContain('It shows genkit 1.42 bug 1: a restart whose tool interrupts again crashes.');
    expect(header('bug1')).toContain('Where: `recording.bugs[0]`.');
    expect(header('bug3')).toContain('It shows genkit 1.42 bug 3');
    expect(header('bug4')).toContain('It shows genkit 1.42 bug 4');
    expect(header('bug5')).toContain('It shows genkit 1.42 bug 5');
    expect(header('restart')).not.toContain('genkit 1.42 bug');
    expect(header('restart')).toContain('Left out: the middleware the recorded calls ran (`recording.leftOut`)');
    expect(about('restart')).toContain('"leftOut": ["loopscope/tool-timeout"],');
    expect(header('pending')).not.toContain('genkit 1.42 bug');
    for (const name of Object.keys(FILES) as Case[]) expect(header(name)).not.toContain(FILES[name]);
  });

  it('writes the chain as generate calls: a resume sends its parent’s messages and the recorded resume parts', () => {
    const { source } = exported.get('restart')!;
    expect(source).toContain('const r1 = await step(0, "generate 1", () =>\n    ai.generate({\n      model: "scripted/restart-after-approval",');
    expect(source).toContain('await step(1, "generate 2 (resume)", () =>');
    expect(source).toContain('messages: r1!.messages,');
    expect(source).toMatch(/resume: \{\n {8}"respond": \[\],\n {8}"restart": \[/);
    expect(source).toContain('tools: ["transferMoney"],');
    // One stub per recorded tool, with its recorded JSON schemas; only the helpers it uses.
    expect(source.match(/ai\.defineTool\(/g)).toHaveLength(1);
    expect(source).toContain('inputJsonSchema: {');
    expect(source).not.toContain('printToolResponses');
  });

  it('imports the local tool modules instead of stubbing their tools, when asked', () => {
    const { recording } = exported.get('pending')!;
    const source = exportRepro(recording, { useLocalTools: true, toolModules: [{ importPath: '../tools/bank', tools: ['lookupOrder', 'transferMoney', 'unrecorded'] }] });
    expect(source).toContain('import bankTools from "../tools/bank";');
    expect(source).toContain('  await bankTools(ai);');
    expect(source).not.toContain('ai.defineTool(');
    expect(source).not.toContain('playTool');
  });
});

describe('helpers', () => {
  it('codeLiteral keeps short JSON on one line and indents long JSON by two spaces', () => {
    expect(codeLiteral({ a: [1, 'x'], b: {} })).toBe('{ "a": [1, "x"], "b": {} }');
    const long = { text: 'x'.repeat(90), list: [1, 2] };
    expect(codeLiteral(long, '  ')).toBe(`{\n    "text": "${'x'.repeat(90)}",\n    "list": [1, 2],\n  }`);
  });

  it('codeLiteral escapes what could end a comment or a line, close a script or mislead a reader, and keeps the value', () => {
    const hostile = 'a\u2028b\u2029c</script><!-- */ /* \u202e\u2066\u007f\u0085\ufeff\udb80\udc00 é 😀 `${x}` "\\ \n\r';
    const encoded = String.raw`"a\u2028b\u2029c\u003c/script\u003e\u003c!-- *\/ /* \u202e\u2066\u007f\u0085\ufeff\udb80\udc00 é 😀 ${'`${x}`'} \"\\ \n\r"`;
    expect(codeLiteral(hostile)).toBe(encoded);
    // Keys too, also when the literal is expanded over several lines.
    expect(codeLiteral({ [hostile]: [hostile] })).toBe(`{\n  ${encoded}: [\n    ${encoded},\n  ],\n}`);
    // Still JSON, and the same value as TypeScript reads it.
    expect(JSON.parse(codeLiteral(hostile))).toBe(hostile);
    expect(new Function(`return ${codeLiteral({ [hostile]: [hostile] })};`)()).toEqual({ [hostile]: [hostile] });
  });

  it('reproFileName makes a safe .ts name from a trace file name', () => {
    expect(reproFileName('traces/genkit-bug-1-restart-reinterrupts.json')).toBe('repro-genkit-bug-1-restart-reinterrupts.ts');
    expect(reproFileName('lib/graph/__fixtures__/bug4-no-ref.otlp.json')).toBe('repro-bug4-no-ref.ts');
    expect(reproFileName('weird name "x".json')).toBe('repro-weird-name-x.ts');
  });
});
