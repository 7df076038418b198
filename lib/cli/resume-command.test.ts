import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumeContextFrom } from '../runtimes/resume-context';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { capturedTracesIn } from '../store/testing/captured-traces';
import { TraceStore } from '../store/trace-store';
import { startFakeReceiver } from './testing/fake-receiver';

/**
 * `loopscope resume` without --dry-run, run as a user runs it (`node --import tsx lib/cli/main.ts`),
 * with the real genkit runtime and the tools in tools/. Asynchronous on purpose: one test has a
 * fake server in this process that must answer while the command runs.
 */
let root: string;
let dataDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-resume-cli-'));
  dataDir = path.join(root, 'data');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function loopscope(args: string[], environment: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'lib/cli/main.ts', ...args],
      // PORT 1: nothing listens there, so the command writes the data dir itself.
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PORT: '1', LOOPSCOPE_DATA_DIR: dataDir, ...environment } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

/** The traces captured in the temp data dir. */
const storedTraces = (): Promise<Map<string, Span[]>> => capturedTracesIn(dataDir);

/** How many spans the recorded resume in a shipped example has (its second trace). */
async function recordedResumeSpanCount(file: string): Promise<number> {
  const spans = await loadTraceFile(file);
  const roots = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
  return spans.filter((span) => span.traceId === roots[1].traceId).length;
}

describe('loopscope resume (runs the resume)', () => {
  it('restart of a saved trace: the tool runs again in real genkit, the new trace is stored with every span, the saved file is untouched', async () => {
    const file = 'traces/restart-after-approval.json';
    const before = await sha256(file);
    const { status, stdout, stderr } = await loopscope(['resume', file, '--restart', 'transferMoney#transfer-1={"approved":true,"approvedBy":"carol"}']);
    expect(stderr).toBe('');
    expect(status).toBe(0);

    const stored = await storedTraces();
    expect(stored.size).toBe(1);
    const [[traceId, spans]] = [...stored];
    // generate + nested generate + model + the restarted tool: what the recorded resume has too.
    expect(spans).toHaveLength(await recordedResumeSpanCount(file));
    expect(spans).toHaveLength(4);
    const tool = spans.find((span) => span.attributes['genkit:name'] === 'transferMoney')!;
    expect(JSON.parse(String(tool.attributes['genkit:output']))).toMatchObject({ approvedBy: 'carol' });
    // The new trace says which interrupt it answers: an OTel link from its root to the recorded generate.
    const interrupted = resumeContextFrom(await loadTraceFile(file));
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    expect(root.links.map((link) => `${link.traceId}:${link.spanId}`)).toEqual([`${interrupted.traceId}:${interrupted.spanId}`]);
    const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
    expect(await store.list()).toEqual([expect.objectContaining({ traceId, spanCount: 4, serviceName: 'loopscope-cli' })]);
    await store.close();

    expect(stdout).toContain(`new trace ${traceId} (4 spans, stored in ${dataDir}/)`);
    expect(stdout).toContain('2 trace(s) · 2 generate(s) · 2 model call(s) · 2 tool call(s) · 1 interrupt(s) · answered: 0 respond, 1 restart');
    expect(stdout).toContain('answered by restart in generate 2');
    expect(stdout).toContain(`generate 2 (resume of generate 1)  trace ${traceId}`);
    expect(stdout).toContain('✓ transferMoney#transfer-1  ok (restarted)');
    expect(await sha256(file)).toBe(before);
  });

  it('respond with --json, while a server runs on the same data dir: Graph JSON printed, the server stores and lists the trace', async () => {
    const file = 'traces/respond-to-question.json';
    const before = await sha256(file);
    const server = await startFakeReceiver({ dataDir, savedDir: path.join(root, 'saved') });
    try {
      const { status, stdout, stderr } = await loopscope(['resume', file, '--respond', 'askUser#seat-1={"answer":"Aisle"}', '--json'], { PORT: String(server.port) });
      expect(stderr).toBe('');
      expect(status).toBe(0);
      const graph = JSON.parse(stdout);
      expect(Object.keys(graph).sort()).toEqual(['edges', 'generates', 'nodes', 'summary']);
      expect(graph.summary).toStrictEqual({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 1, interrupts: 1, responds: 1, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'stop' });
      const newTraceId = graph.generates[1].traceId;
      // The running server heard of it (no restart needed) and counts every span.
      const listed = await server.store.list();
      expect(listed.map((summary) => summary.traceId)).toEqual([newTraceId]);
      expect(listed[0].spanCount).toBe(await recordedResumeSpanCount(file));
      expect(graph.generates[1].resume.resolutions[0]).toMatchObject({ kind: 'respond', output: { answer: 'Aisle' } });
    } finally {
      await server.close();
    }
    expect(await sha256(file)).toBe(before);
  });

  it('an invalid answer exits 1 naming the broken rule, and nothing runs or is stored', async () => {
    const { status, stdout } = await loopscope(['resume', 'traces/respond-to-question.json', '--respond', 'askUser#seat-1={"choice":"Aisle"}']);
    expect(status).toBe(1);
    expect(stdout).toContain("error INVALID_ARGUMENT: Respond output for askUser#seat-1 does not match the tool's output schema: (root) must have required property 'answer'.");
    expect(stdout).toContain('nothing ran');

    const unanswered = await loopscope(['resume', 'traces/parallel-pending-output.json', '--json']);
    expect(unanswered.status).toBe(1);
    const result = JSON.parse(unanswered.stdout);
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toMatch(/^Unresolved tool request 'transferMoney#refund-1' was not handled by the 'resume' argument\./);
    expect((await storedTraces()).size).toBe(0);
  });

  it('refuses to restart a tool not registered in tools/ (exit 1, nothing stored); respond works without the tool', async () => {
    const emptyTools = path.join(root, 'tools');
    await mkdir(emptyTools);
    const environment = { LOOPSCOPE_TOOLS_DIR: emptyTools, LOOPSCOPE_SCENARIOS_DIR: path.resolve('tools/scenarios') };
    const refused = await loopscope(['resume', 'traces/restart-after-approval.json', '--restart', 'transferMoney#transfer-1'], environment);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain(`error FAILED_PRECONDITION: Cannot restart transferMoney: no tool of that name is registered in ${emptyTools}/ (respond works without it).`);
    expect((await storedTraces()).size).toBe(0);

    const answered = await loopscope(['resume', 'traces/respond-to-question.json', '--respond', 'askUser#seat-1={"answer":"Window"}'], environment);
    expect(answered.status).toBe(0);
    expect(answered.stdout).toContain('answered by respond in generate 2');
    expect((await storedTraces()).size).toBe(1);
  });

  it('a resume genkit fails exits 1 with genkit’s message, and its trace is still stored (bug 1: restart of a respond-only tool)', async () => {
    const { status, stdout, stderr } = await loopscope(['resume', 'traces/respond-to-question.json', '--restart', 'askUser#seat-1']);
    expect(status).toBe(1);
    expect(stderr).toContain('loopscope: warning: askUser is respond-only (defineInterrupt)');
    expect(stderr).toContain("loopscope: genkit failed the resume: Cannot read properties of undefined (reading 'tools')");
    expect(stdout).toContain("✗ failed: Cannot read properties of undefined (reading 'tools')");
    expect((await storedTraces()).size).toBe(1);
  });

  it('a recorded model that is not defined here exits 2 with one sentence', async () => {
    const { status, stdout, stderr } = await loopscope(['resume', 'lib/graph/__fixtures__/interrupt-restart.otlp.json', '--restart', 'transferMoney#tx1']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^loopscope: The interrupted generate called model "fixture\/interrupt-restart", which is not defined here/);
    expect((await storedTraces()).size).toBe(0);
  });
});
