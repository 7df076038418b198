import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { frameworkFixturePath } from '../../testing/framework-fixtures';

/** `loopscope resume <paused ADK run> --dry-run`, as a user runs it: the pending calls in ADK's words, ADK's rules, the Python to paste. */
function loopscope(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loopscope resume on a paused Google ADK run', () => {
  const paused = frameworkFixturePath('google-adk', 'confirmation-approve');

  it('--dry-run lists the pending call as ADK pauses it, checks the answer and prints the app’s Python', () => {
    const { status, stdout } = loopscope('resume', paused, '--dry-run', '--approve', 'book_table#call_book_table');
    expect(status).toBe(0);
    expect(stdout).toContain('Answer to the paused Google ADK call');
    expect(stdout).toContain('book_table#call_book_table  paused: approval required (FunctionTool require_confirmation)');
    expect(stdout).toContain('ok: Google ADK would accept this answer.');
    expect(stdout).toContain('name="adk_request_confirmation"');
    expect(stdout).toContain('response={"confirmed": True}');
  });

  it('a refused answer exits 1 with ADK’s own error; --value takes a ToolConfirmation', () => {
    const unknown = loopscope('resume', paused, '--dry-run', '--approve', 'book_table#call_nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toContain("ValueError: Function call not found for function response ids: {'call_nope'}");
    const extra = loopscope('resume', paused, '--dry-run', '--value', 'book_table#call_book_table={"confirmed":true,"message":"ok"}', '--json');
    expect(extra.status).toBe(1);
    expect(JSON.parse(extra.stdout)).toMatchObject({ ok: false, verdict: 'refused', errors: [{ message: expect.stringContaining('ValidationError: 1 validation error for ToolConfirmation') }] });
  });

  it('without --dry-run it runs nothing: Loopscope does not run ADK apps (exit 2, the reason on stderr)', () => {
    const run = loopscope('resume', paused, '--approve', 'book_table#call_book_table');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Loopscope does not run Google ADK apps.*--dry-run/);
  });
});
