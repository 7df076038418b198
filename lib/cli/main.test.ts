import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs the real command as a user would: `node --import tsx lib/cli/main.ts …`. */
function loopscope(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loopscope CLI', () => {
  it('graph --json prints Graph JSON whose summary has exactly the contract’s fields', () => {
    const { status, stdout } = loopscope('graph', 'traces/parallel-pending-output.json', '--json');
    expect(status).toBe(0);
    const graph = JSON.parse(stdout);
    expect(Object.keys(graph).sort()).toEqual(['edges', 'generates', 'nodes', 'summary']);
    expect(graph.summary).toStrictEqual({ traces: 2, generates: 2, modelCalls: 2, toolCalls: 3, interrupts: 1, responds: 0, restarts: 1, pendingReused: 1, errors: 0, finishReason: 'stop' });
  });

  it('graph without --json prints the text rendering', () => {
    const { status, stdout } = loopscope('graph', 'traces/restart-after-approval.json');
    expect(status).toBe(0);
    expect(stdout).toContain('generate 2 (resume of generate 1)');
    expect(stdout).toContain('answered by restart in generate 2');
  });

  it('an unreadable file exits 2 with one sentence on stderr and no stack', () => {
    const { status, stderr, stdout } = loopscope('graph', 'no-such-file.json');
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^loopscope: .*no-such-file\.json/);
  });

  it('bad usage exits 2', () => {
    expect(loopscope('graph').status).toBe(2);
    expect(loopscope('frobnicate').status).toBe(2);
    expect(loopscope('graph', 'traces/plain-tool-round.json', '--colour').status).toBe(2);
  });

  it('resume --dry-run accepts a valid answer (exit 0) and names a broken rule (exit 1)', () => {
    const ok = loopscope('resume', 'traces/parallel-pending-output.json', '--dry-run', '--restart', 'transferMoney#refund-1={"approved":true}', '--json');
    expect(ok.status).toBe(0);
    const payload = JSON.parse(ok.stdout);
    expect(payload.ok).toBe(true);
    expect(payload.payload.resume.restart[0].metadata.resumed).toEqual({ approved: true });

    const missing = loopscope('resume', 'traces/parallel-pending-output.json', '--dry-run');
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("Unresolved tool request 'transferMoney#refund-1' was not handled by the 'resume' argument.");

    const badJson = loopscope('resume', 'traces/respond-to-question.json', '--dry-run', '--respond', 'askUser#seat-1={oops');
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/not valid JSON/);

    const deep = loopscope('resume', 'traces/respond-to-question.json', '--dry-run', '--respond', `askUser#seat-1=${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(deep.status).toBe(2);
    expect(deep.stderr.split('\n')[0]).toBe('loopscope: --respond askUser#seat-1: the value is nested 10000 levels deep; the limit is 128.');
  });
});
