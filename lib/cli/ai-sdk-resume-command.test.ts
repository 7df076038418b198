import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturedTracesIn } from '../store/testing/captured-traces';

/**
 * `loopscope resume` on paused AI SDK calls, run as a user runs it: `--approve`, `--deny`,
 * `--respond` checked by the SDK's rules, then the answering `generateText` of the recorded
 * scenario run in the real `ai` package with tools/ai-sdk/, its spans captured and counted.
 */
const FIXTURES = path.join('lib', 'runtimes', 'ai-sdk', '__fixtures__');
const fixture = (name: string) => path.join(FIXTURES, `${name}.otlp.json`);
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ai-sdk-resume-cli-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function loopscope(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PORT: '1', LOOPSCOPE_DATA_DIR: dataDir } }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

async function storedSpans() {
  return [...(await capturedTracesIn(dataDir)).values()].flat();
}

describe('loopscope resume on AI SDK traces', () => {
  it('--dry-run checks by the SDK’s rules and prints the next messages; a broken rule exits 1 with the SDK’s error', async () => {
    const ok = await loopscope(['resume', fixture('ai-sdk-approval-denied'), '--deny', 'transferMoney#transfer-1=Bob is not a known payee.', '--dry-run']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('ok: Vercel AI SDK would accept this answer.');
    expect(ok.stdout).toContain('"type": "tool-approval-response"');
    expect(ok.stdout).toContain('"reason": "Bob is not a known payee."');
    const json = await loopscope(['resume', fixture('ai-sdk-approval-denied'), '--approve', 'transferMoney#transfer-1', '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, errors: [], payload: { messages: expect.any(Array) } });
    const missing = await loopscope(['resume', fixture('ai-sdk-approval-denied'), '--dry-run']);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/AI_MissingToolResultsError: Tool result is missing for tool call transfer-1\./);
    expect(await storedSpans()).toEqual([]);
  });

  it('--approve runs the approved tool in real generateText: the new trace is stored with every span and links to the pause; the file is untouched', async () => {
    const file = fixture('ai-sdk-approval-approved');
    const before = createHash('sha256').update(await readFile(file)).digest('hex');
    const result = await loopscope(['resume', file, '--approve', 'transferMoney#transfer-1=known payee']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Answered the paused AI SDK call of trace [0-9a-f]{32}: new trace [0-9a-f]{32} \(4 spans/);
    const spans = await storedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(['chat scripted/ai-sdk-approval-approved', 'execute_tool transferMoney', 'invoke_agent scripted/ai-sdk-approval-approved', 'step 1']);
    expect(spans.find((span) => span.parentSpanId === undefined)!.links).toHaveLength(1);
    expect(createHash('sha256').update(await readFile(file)).digest('hex')).toBe(before);
  });

  it('--respond answers a handed-back tool (checked against its output schema); an --approve of it is refused, naming why', async () => {
    const file = fixture('ai-sdk-handed-back-tool');
    const bad = await loopscope(['resume', file, '--respond', 'askUser#ask-1={"answer":3}']);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/does not match the tool's output schema: \/answer must be string/);
    const approve = await loopscope(['resume', file, '--approve', 'askUser#ask-1']);
    expect(approve.status).toBe(1);
    expect(approve.stdout).toMatch(/askUser#ask-1 is a handed-back tool \(no execute\)/);
    const good = await loopscope(['resume', file, '--respond', 'askUser#ask-1={"answer":"Window"}', '--json']);
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout).summary).toMatchObject({ traces: 2, interrupts: 1, responds: 1, finishReason: 'stop' });
  });

  it('--approve on a genkit trace is bad input (exit 2)', async () => {
    const result = await loopscope(['resume', 'traces/restart-after-approval.json', '--approve', 'transferMoney#transfer-1']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--approve and --deny answer AI SDK approvals/);
  });
});
