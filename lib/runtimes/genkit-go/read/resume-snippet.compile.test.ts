import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../../resume-context';
import { resumeSnippet, validateResume } from '../../validate-resume';
import type { ResumeCheck } from '../../../loop/resume-model';
import { loadTraceFile } from '../../../store/load-trace-file';

/**
 * The Go code the workbench shows for a checked genkit Go answer compiles against the genkit Go
 * module the runner pins (v1.12.0): each snippet becomes the body of a function in a throwaway
 * module under .loopscope/, built by the real `go` toolchain. A trace's hostile strings are
 * covered by the literal rules (resume-snippet.ts); this checks the calls and their types.
 */
const FIXTURES = path.join(process.cwd(), 'lib', 'runtimes', 'genkit-go', '__fixtures__');
const MODULE_DIR = path.join(process.cwd(), '.loopscope', 'go-snippet-check');

async function pausedCall(name: string) {
  const spans = await loadTraceFile(path.join(FIXTURES, `${name}.otlp.json`));
  const first = [...spans].filter((span) => span.name === 'generate' && !span.parentSpanId).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return resumeContextFrom(spans.filter((span) => span.traceId === first.traceId));
}

async function snippetOf(name: string, answers: Omit<ResumeCheck, 'context'>): Promise<{ code: string; tools: string[] }> {
  const context = await pausedCall(name);
  const checked = validateResume({ context, ...answers });
  expect(checked.errors, name).toEqual([]);
  return { code: resumeSnippet({ context, payload: checked.payload }), tools: context.tools.map((tool) => tool.name) };
}

describe('the Go code of a checked genkit Go answer', () => {
  it('compiles against genkit Go v1.12.0: respond, typed resume, a new input, a ToolApproval approval and refusal', async () => {
    const snippets = [
      await snippetOf('go-respond-to-question', { respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Aisle "window"\n' } }] }),
      await snippetOf('go-restart-after-approval', { restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true, approvedBy: 'dana', tags: ['a', 1, null] } }] }),
      await snippetOf('go-restart-after-approval', { restart: [{ name: 'transferMoney', ref: 'transfer-1' }] }),
      await snippetOf('go-restart-with-input', { restart: [{ name: 'bookFlight', ref: 'flight-1', resumed: { confirmed: true }, replaceInput: { from: 'LIS', to: 'OPO', date: '2027-06-04' } }] }),
      await snippetOf('go-tool-approval-approved', { restart: [{ name: 'sendEmail', ref: 'email-1', resumed: { toolApproved: true } }] }),
      await snippetOf('go-tool-approval-refused', { respond: [{ name: 'sendEmail', ref: 'email-1', output: { status: 'not sent', to: 'ana@example.com', subject: 'Lisbon weather' } }] }),
    ];
    expect(snippets[4].code).toContain('ai.WithUse(&middleware.ToolApproval{');
    const functions = snippets.map(
      ({ code, tools }, index) =>
        `func resume${index}(ctx context.Context, g *genkit.Genkit, resp *ai.ModelResponse, ${tools.map((tool) => `${tool} ai.Tool`).join(', ')}) error {\n${code
          .split('\n')
          .map((line) => `\t${line}`)
          .join('\n')}\n\t_ = resumed\n\treturn err\n}`,
    );
    const program = [
      'package main',
      '',
      'import (',
      '\t"context"',
      '',
      '\t"github.com/firebase/genkit/go/ai"',
      '\t"github.com/firebase/genkit/go/ai/exp/tool"',
      '\t"github.com/firebase/genkit/go/genkit"',
      '\t"github.com/firebase/genkit/go/plugins/middleware"',
      ')',
      '',
      'var _ = tool.Respond',
      'var _ = middleware.ToolApproval{}',
      '',
      '// interrupted finds the interrupted request of resp by tool name and ref.',
      'func interrupted(resp *ai.ModelResponse, name, ref string) *ai.Part {',
      '\tfor _, part := range resp.Interrupts() {',
      '\t\tif part.ToolRequest.Name == name && part.ToolRequest.Ref == ref {',
      '\t\t\treturn part',
      '\t\t}',
      '\t}',
      '\treturn nil',
      '}',
      '',
      ...functions,
      '',
      'func main() {}',
      '',
    ].join('\n');
    await rm(MODULE_DIR, { recursive: true, force: true });
    await mkdir(MODULE_DIR, { recursive: true });
    await writeFile(path.join(MODULE_DIR, 'go.mod'), 'module loopscope.local/go-snippet-check\n\ngo 1.26.0\n\nrequire github.com/firebase/genkit/go v1.12.0\n');
    // The runner's go.sum holds genkit Go's whole module graph: nothing new is fetched.
    await copyFile(path.join(process.cwd(), 'go', 'runner', 'go.sum'), path.join(MODULE_DIR, 'go.sum'));
    await writeFile(path.join(MODULE_DIR, 'main.go'), program);
    const built = await promisify(execFile)('go', ['vet', '-mod=mod', '.'], { cwd: MODULE_DIR, timeout: 600_000 }).then(
      () => '',
      (error: { stderr?: string; message: string }) => error.stderr ?? error.message,
    );
    expect(built).toBe('');
  }, 600_000);
});
