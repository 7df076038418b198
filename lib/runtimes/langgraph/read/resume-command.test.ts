import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { frameworkFixturePath } from '../../testing/framework-fixtures';

/** `loopscope resume <paused LangGraph run> --dry-run`, as a user runs it: the interrupts in LangGraph's words, its rules, the Command to paste. */
function loopscope(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loopscope resume on a paused LangGraph run', () => {
  const paused = frameworkFixturePath('langgraph', 'openinference-tool-interrupt-approve');

  it('--dry-run lists the interrupts, checks the answer and prints Command(resume=…) keyed by interrupt id', () => {
    const { status, stdout } = loopscope('resume', paused, '--dry-run', '--approve', 'book_table#call_book_table', '--deny', 'send_invite#call_send_invite=not tonight');
    expect(status).toBe(0);
    expect(stdout).toContain('book_table#call_book_table  paused: interrupt (in the tool)');
    expect(stdout).toContain('get_weather#call_weather_paris  done');
    expect(stdout).toContain('ok: LangGraph would accept this answer.');
    expect(stdout).toMatch(/Command\(resume=\{\n {8}"8775a68ab7d90de5dba3b3d2fb0bde4d": \{"type": "approve"\},\n {8}"e77b215f9234e2f39967891940112ccc": \{"type": "reject", "message": "not tonight"\},\n {4}\}\),/);
    expect(stdout).toContain('config = {"configurable": {"thread_id": "thread-c17e8617"}}');
  });

  it('a call that did not pause, with two interrupts pending, is LangGraph’s RuntimeError (exit 1); a value breaking the response_schema its ValidationError', () => {
    const notPaused = loopscope('resume', paused, '--dry-run', '--approve', 'get_weather#call_weather_paris');
    expect(notPaused.status).toBe(1);
    expect(notPaused.stdout).toContain('RuntimeError: When there are multiple pending interrupts, you must specify the interrupt id when resuming.');
    const badValue = loopscope('resume', paused, '--dry-run', '--value', 'book_table#call_book_table={"type":"edit"}');
    expect(badValue.status).toBe(1);
    expect(badValue.stdout).toContain("breaks the interrupt's response_schema");
  });

  it('without --dry-run it runs nothing: Loopscope does not run LangGraph apps (exit 2)', () => {
    const run = loopscope('resume', paused, '--approve', 'book_table#call_book_table');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Loopscope does not run LangGraph apps/);
  });
});
