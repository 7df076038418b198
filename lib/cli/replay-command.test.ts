import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Runs the real command as a user (or a CI job) would: `node --import tsx lib/cli/main.ts replay …`. */
function loopscope(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'loopscope-replay-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('loopscope replay', () => {
  it('exits 0 on a recording that replays as recorded, and says so', () => {
    const { status, stdout } = loopscope('replay', 'traces/genkit-bug-1-restart-reinterrupts.json');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^replay: MATCH — 2 step\(s\), 0 divergence\(s\)/);
    expect(stdout).toContain("replayed failed: Cannot read properties of undefined (reading 'tools')");
  });

  it('exits 1 on a changed recording and prints the first divergence: which call, which field', () => {
    const body = JSON.parse(readFileSync('traces/restart-after-approval.json', 'utf8'));
    // The recorded transferMoney restart output changes: the model's next request differs.
    const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const restarted = spans.find((span: any) => span.name === 'transferMoney' && span.attributes.some((attribute: any) => attribute.key === 'genkit:metadata:resumed'));
    const output = restarted.attributes.find((attribute: any) => attribute.key === 'genkit:output');
    output.value.stringValue = output.value.stringValue.replace('"done"', '"rejected"');
    const changed = path.join(scratch, 'changed.json');
    writeFileSync(changed, JSON.stringify(body));
    const { status, stdout } = loopscope('replay', changed);
    expect(status).toBe(1);
    expect(stdout).toMatch(/^replay: DIVERGED/);
    expect(stdout).toMatch(/first divergence: generate 2 \(resume\), model call 1, field messages\[\d\]\.content\[\d\]\.toolResponse\.output\.status/);
    expect(stdout).toContain('recorded: "done"');
    expect(stdout).toContain('replayed: "rejected"');

    const json = loopscope('replay', changed, '--json', '--lenient');
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ matched: false, mode: 'lenient', liveTools: false });
    expect(report.divergences[0]).toMatchObject({ step: 1, kind: 'model-request', recorded: 'done', replayed: 'rejected' });
  });

  it('--live-tools runs the local tools and matches the shipped scenario recordings', () => {
    const { status, stdout } = loopscope('replay', 'traces/parallel-pending-output.json', '--live-tools');
    expect(status).toBe(0);
    expect(stdout).toContain('live tools');
  });

  it('an AI SDK recording (a paused call and its answer): exit 0 as recorded, 1 once a recorded tool output changed, naming call, model call and field', () => {
    const fixture = 'lib/runtimes/ai-sdk/__fixtures__/ai-sdk-approval-approved.otlp.json';
    const same = loopscope('replay', fixture);
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^replay: MATCH — 2 step\(s\), 0 divergence\(s\)/);
    expect(same.stdout).toContain('✓ call 2 (answer): recorded finished (stop); replayed finished (stop) (model calls 1/1, tool calls 1/1)');

    const body = JSON.parse(readFileSync(fixture, 'utf8'));
    const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const approved = spans.find((span: any) => span.name === 'execute_tool transferMoney');
    const result = approved.attributes.find((attribute: any) => attribute.key === 'gen_ai.tool.call.result');
    result.value.stringValue = result.value.stringValue.replace('"sent"', '"held"');
    const changed = path.join(scratch, 'changed-ai-sdk.json');
    writeFileSync(changed, JSON.stringify(body));
    const diverged = loopscope('replay', changed);
    expect(diverged.status).toBe(1);
    expect(diverged.stdout).toMatch(/first divergence: call 2 \(answer\), model call 1, field messages\[\d\]\.parts\[\d\]\.response\.status/);
    expect(diverged.stdout).toContain('recorded: "sent"');
    expect(diverged.stdout).toContain('replayed: "held"');
  });

  it('exits 2 on unreadable input and on a file with nothing to replay', () => {
    expect(loopscope('replay', 'no-such-file.json').status).toBe(2);
    const empty = path.join(scratch, 'empty.json');
    writeFileSync(empty, JSON.stringify({ resourceSpans: [] }));
    const result = loopscope('replay', empty);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^loopscope: .*nothing|no generate/i);
  });
});

describe('loopscope replay on a genkit Go trace (in the Go runner)', () => {
  const fixture = 'lib/runtimes/genkit-go/__fixtures__/go-restart-after-approval.otlp.json';
  const goLoopscope = (...args: string[]) => {
    // The first call may build the Go runner.
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 600_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('exit 0 as recorded; exit 1 once the restarted tool’s recorded output changed, naming step, model call and field; exit 2 on a trace with a lost model span', () => {
    const same = goLoopscope('replay', fixture);
    expect(same.stderr).toBe('');
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^replay: MATCH — 2 step\(s\), 0 divergence\(s\), strict mode, recorded tools/);
    expect(same.stdout).toContain('✓ generate 2 (resume): recorded finished (stop); replayed finished (stop) (model calls 1/1, tool calls 1/1)');

    const body = JSON.parse(readFileSync(fixture, 'utf8'));
    const spans = body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const restarted = spans.find((span: any) => span.name === 'transferMoney' && span.attributes.some((attribute: any) => attribute.key === 'genkit:output'));
    const output = restarted.attributes.find((attribute: any) => attribute.key === 'genkit:output');
    output.value.stringValue = output.value.stringValue.replace('"done"', '"rejected"');
    const changed = path.join(scratch, 'go-changed.json');
    writeFileSync(changed, JSON.stringify(body));
    const diverged = goLoopscope('replay', changed);
    expect(diverged.status).toBe(1);
    expect(diverged.stdout).toMatch(/first divergence: generate 2 \(resume\), model call 1, field messages\[2\]\.content\[0\]\.toolResponse\.output\.status/);
    expect(diverged.stdout).toContain('recorded: "done"');
    expect(diverged.stdout).toContain('replayed: "rejected"');

    for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) scope.spans = scope.spans.filter((span: any) => !span.name.startsWith('scripted/'));
    const lost = path.join(scratch, 'go-lost.json');
    writeFileSync(lost, JSON.stringify(body));
    const refused = goLoopscope('replay', lost);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^loopscope: The genkit Go generate span [0-9a-f]{16} of trace [0-9a-f]{32} ran a model turn, but the recording has no model span under it/);
  }, 900_000);
});
