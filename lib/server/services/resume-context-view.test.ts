import { describe, expect, it } from 'vitest';
import { resumeContextView } from './resume-context-view';
import { startRun } from './run-service';
import { runEnded, useRunnerContext } from '../testing/runner-context';

const runner = useRunnerContext();

/** The resume workbench of a genkit JS run paused by an interrupt, as `POST /api/resume/context` gives it. */
async function workbenchOf(scenario: string) {
  const run = await startRun({ context: runner.context, scenario });
  const paused = await runEnded({ context: runner.context, runId: run.runId });
  expect(paused.status).toBe('interrupted');
  return resumeContextView(runner.context, { source: { traceIds: paused.traceIds } });
}

describe('the resume workbench of a genkit JS run', () => {
  it("starts each respond editor from the interrupted tool's output schema", async () => {
    const question = await workbenchOf('respond-to-question');
    expect(question.requests.map(({ name, state, outputExample }) => ({ name, state, outputExample }))).toEqual([
      { name: 'askUser', state: 'interrupted', outputExample: { answer: '' } },
    ]);
    expect(question.tools.find((tool) => tool.name === 'askUser')?.outputSchema).toMatchObject({ type: 'object', required: ['answer'] });

    const transfer = await workbenchOf('restart-after-approval');
    // status is an enum (its first value), approvedBy is optional: left out.
    expect(transfer.requests.find((request) => request.name === 'transferMoney')?.outputExample).toEqual({ status: 'done', to: '', amountUsd: 0 });
  });
});
