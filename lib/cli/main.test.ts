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
  it('resume --dry-run on an agent framework’s trace: its pauses in its words, its rules, the answer as its code; without --dry-run nothing runs (exit 2)', () => {
    const pydantic = 'lib/runtimes/pydantic-ai/__fixtures__/v6-two-approvals-mixed.otlp.json';
    const ok = loopscope('resume', pydantic, '--dry-run', '--approve', 'book_hotel#call_book_paris', '--deny', 'book_hotel#call_book_rome=Not Rome.', '--respond', 'run_background_check#call_check_ada={"status":"clear"}');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('Answer to the paused Pydantic AI call');
    expect(ok.stdout).toContain('book_hotel#call_book_paris  paused: approval required (requires_approval)');
    expect(ok.stdout).toContain('run_background_check#call_check_ada  paused: deferred (CallDeferred)');
    expect(ok.stdout).toContain('ok: Pydantic AI would accept this answer.');
    expect(ok.stdout).toContain('"call_book_rome": ToolDenied("Not Rome."),');
    expect(ok.stdout).toContain('deferred_tool_results=deferred_tool_results,');

    const missing = loopscope('resume', pydantic, '--dry-run', '--approve', 'book_hotel#call_book_paris');
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("Pydantic AI would raise UserError: Tool call results need to be provided for all deferred tool calls. Expected: {'call_book_paris', 'call_book_rome', 'call_check_ada'}, got: {'call_book_paris'}");

    const agents = loopscope('resume', 'lib/runtimes/openai-agents/__fixtures__/approval-approve.otlp.json', '--dry-run', '--deny', 'book_hotel#call_book_paris=Too expensive.');
    expect(agents.status).toBe(0);
    expect(agents.stdout).toContain('book_hotel#call_book_paris  paused: approval required (needs_approval)');
    expect(agents.stdout).toContain('state.reject(item, rejection_message="Too expensive.")');
    expect(agents.stdout).toContain('result = await Runner.run(agent, state)');

    const run = loopscope('resume', pydantic, '--approve', 'book_hotel#call_book_paris');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Loopscope does not run Pydantic AI apps');
  });
});
