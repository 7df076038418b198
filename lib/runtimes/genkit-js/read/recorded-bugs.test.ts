import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../../store/load-trace-file';
import { readRecording } from '../replay/read-genkit-recording';
import { recordedGenkitBugs } from './recorded-bugs';

const bugsOf = async (file: string) => recordedGenkitBugs(readRecording(await loadTraceFile(file)));

describe('recordedGenkitBugs', () => {
  it.each([
    [1, 'bug1-restart-reinterrupts', 1],
    [2, 'bug2-replace-input', 1],
    [3, 'bug3-mutated-messages', 2],
    [4, 'bug4-no-ref', 1],
    [5, 'bug5-tool-alone', 0],
  ] as const)('finds bug %i in the real genkit run %s, at the step that shows it', async (bug, fixture, step) => {
    const found = await bugsOf(`lib/graph/__fixtures__/${fixture}.otlp.json`);
    expect(found.map((entry) => [entry.bug, entry.step])).toEqual([[bug, step]]);
  });

  it('says what the recording shows, with its values', async () => {
    const [bug2] = await bugsOf('lib/graph/__fixtures__/bug2-replace-input.otlp.json');
    expect(bug2.summary).toContain('({"to":"bob","amount":500} → {"to":"bob","amount":50})');
    expect(bug2.showsInToolResponses).toBe(true);
    const [bug4] = await bugsOf('lib/graph/__fixtures__/bug4-no-ref.otlp.json');
    expect(bug4.summary).toContain('askApproval 2 times without a ref');
  });

  it.each(['interrupt-restart', 'pending-output', 'unanswered-interrupt', 'interrupt-no-metadata', 'tool-error'])('finds none in %s, where genkit behaved', async (fixture) => {
    expect(await bugsOf(`lib/graph/__fixtures__/${fixture}.otlp.json`)).toEqual([]);
  });
});
