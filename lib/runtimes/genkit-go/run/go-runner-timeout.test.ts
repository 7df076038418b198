import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestReceiver } from '../../../server/testing/capture-harness';
import { buildGoRunner, startGoRunner } from './go-runner';

/** A Go call that does not answer in time, or a runner that stops answering its health check, is a hung runner: it is killed (the call fails naming the limit). */
describe('the genkit Go runner’s call limit', () => {
  it('a call past the limit fails with DEADLINE_EXCEEDED and the process is gone', async () => {
    const receiver = await startTestReceiver();
    try {
      const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir: process.cwd() }), projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token, callTimeoutMs: 1 });
      const result = await runner.generate({ scenario: 'go-plain-tool-round' });
      expect(result.failure).toMatchObject({ status: 'DEADLINE_EXCEEDED', message: expect.stringMatching(/did not answer within 0 s: it was stopped/) });
      await expect.poll(() => runner.exited).toBe(true);
      expect(await runner.generate({ scenario: 'go-plain-tool-round' })).toMatchObject({ failure: { status: 'UNAVAILABLE' } });
    } finally {
      await receiver.close();
    }
  }, 600_000);

  it('a health check: a live runner answers a ping; a frozen one does not and is killed', async () => {
    const receiver = await startTestReceiver();
    try {
      const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir: process.cwd() }), projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token });
      expect(await runner.ping(5_000)).toBe(true);
      process.kill(runner.pid, 'SIGSTOP');
      // Stopped for certain (state T in /proc) before the ping that must go unanswered.
      await expect.poll(() => readFileSync(`/proc/${runner.pid}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('T');
      expect(await runner.ping(300)).toBe(false);
      await expect.poll(() => runner.exited).toBe(true);
      expect(await runner.ping(300)).toBe(false);
    } finally {
      await receiver.close();
    }
  }, 600_000);

  it('a stepped call paused longer than the limit is not killed: the limit stops while it waits for a person', async () => {
    const receiver = await startTestReceiver();
    const pauses: string[] = [];
    try {
      const runner = await startGoRunner({
        binary: await buildGoRunner({ projectDir: process.cwd() }),
        projectDir: process.cwd(),
        otlpEndpoint: receiver.endpoint,
        token: receiver.token,
        callTimeoutMs: 1_000,
        onStepLine: (line) => void (line.type === 'paused' && pauses.push(line.pause.pauseId)),
      });
      const done = runner.generate({ scenario: 'go-plain-tool-round', runId: 'paused-long', mode: { kind: 'breakpoints', breakpoints: { tools: [], modelTurns: [1] } } });
      await expect.poll(() => pauses.length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(runner.exited).toBe(false);
      expect(await runner.command({ type: 'pause-decision', runId: 'paused-long', pauseId: pauses[0], decision: { action: 'continue' } })).toMatchObject({ ok: true });
      expect((await done).outcome?.finishReason).toBe('stop');
      await runner.stop();
    } finally {
      await receiver.close();
    }
  }, 600_000);
});
