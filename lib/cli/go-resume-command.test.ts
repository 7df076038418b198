import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturedTracesIn } from '../store/testing/captured-traces';

/** `loopscope resume` on genkit Go traces, as a user runs it: genkit Go's rules, then the resume in the real Go runner, its spans received over OTLP and stored. */
const fixture = (name: string) => path.join('lib', 'runtimes', 'genkit-go', '__fixtures__', `${name}.otlp.json`);
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-resume-cli-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function loopscope(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 600_000, env: { ...process.env, PORT: '1', LOOPSCOPE_DATA_DIR: dataDir } }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('loopscope resume on genkit Go traces', () => {
  it('--dry-run prints genkit Go code; a non-object resumed exits 1 naming Go’s rule; nothing is stored', async () => {
    const ok = await loopscope(['resume', fixture('go-respond-to-question'), '--respond', 'askUser#seat-1={"answer":"Aisle"}', '--dry-run']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('ok: genkit Go would accept this answer.');
    expect(ok.stdout).toContain('ai.WithToolResponses(');
    const bad = await loopscope(['resume', fixture('go-restart-after-approval'), '--restart', 'transferMoney#transfer-1="yes"']);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/tool\.Resume: resume data must serialize to a JSON object/);
    expect((await capturedTracesIn(dataDir)).size).toBe(0);
  }, 120_000);

  it('--dry-run says what genkit Go does: a hold is named held; a call answered twice is accepted as Go takes it; typed data of an unknown resume type is unchecked (exit 3)', async () => {
    const held = await loopscope(['resume', fixture('go-tool-approval-approved'), '--respond', 'sendEmail#email-1={"status":"not sent","to":"ana@example.com","subject":"x"}', '--restart', 'sendEmail#email-1={"toolApproved":false}', '--dry-run']);
    expect(held.stdout).toContain('\n  sendEmail#email-1  held by ToolApproval  {"message":"Tool not in approved list: sendEmail"}\n');
    expect(held.stdout).toContain('warning: sendEmail#email-1 is answered 2 times: genkit Go takes the first response part (checked against the output schema) and ignores the others, so sendEmail is not run again');
    expect(held.stdout).toContain('ok: genkit Go would accept this answer.');
    expect(held.status).toBe(0);
    const typed = await loopscope(['resume', fixture('go-restart-after-approval'), '--restart', 'transferMoney#transfer-1={"approved":"yes"}', '--dry-run']);
    expect(typed.stdout).toMatch(/\nunchecked: The resume data of transferMoney#transfer-1 is unchecked: transferMoney is recorded as a multipart tool/);
    expect(typed.stdout).toContain('unchecked: genkit Go may accept or refuse this answer — 1 part(s) cannot be checked without running it (see above).');
    expect(typed.stdout).not.toContain('would accept');
    expect(typed.status).toBe(3);
    const json = await loopscope(['resume', fixture('go-restart-after-approval'), '--restart', 'transferMoney#transfer-1={"approved":"yes"}', '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, verdict: 'unchecked', errors: [], unchecked: [{ code: 'UNCHECKED', request: 'transferMoney#transfer-1' }] });
  }, 120_000);

  it('a restart runs in genkit Go: the new trace stored (its restarted tool inside the generate), linked to the interrupt', async () => {
    const result = await loopscope(['resume', fixture('go-restart-after-approval'), '--restart', 'transferMoney#transfer-1={"approved":true,"approvedBy":"erin"}', '--json']);
    expect(result.status).toBe(0);
    const graph = JSON.parse(result.stdout);
    expect(graph.summary).toMatchObject({ traces: 2, generates: 2, interrupts: 1, restarts: 1, errors: 0, finishReason: 'stop' });
    const captured = await capturedTracesIn(dataDir);
    expect(captured.size).toBe(1);
    const stored = [...captured.values()].flat();
    expect(stored.map((span) => span.name).sort()).toEqual(['generate', 'generate', 'scripted/go-restart-after-approval', 'transferMoney']);
  }, 600_000);
});
