import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { compareRuns, renderComparisonText } from './compare-runs';

/** The same loop on genkit JS and genkit Go (real runs of both: traces/ and the Go fixtures), compared. */
const load = async (file: string) => ({ label: file, spans: await loadTraceFile(path.join(process.cwd(), file)) });

describe('one scenario, two runtimes', () => {
  it('restart after approval, genkit JS vs genkit Go: the outcome agrees; the spans and the resume’s wire show where Go differs', async () => {
    const comparison = compareRuns({ a: await load('traces/restart-after-approval.json'), b: await load('lib/runtimes/genkit-go/__fixtures__/go-restart-after-approval.otlp.json') });
    expect(comparison.a.runtimes).toEqual(['genkit-js']);
    expect(comparison.b.runtimes).toEqual(['genkit-go']);
    const where = (aspect: string) => comparison.differences.filter((difference) => difference.aspect === aspect).map((difference) => difference.where);
    // The interrupted tool: a pause in JS's span, an error in Go's.
    expect(comparison.differences).toContainEqual({ aspect: 'spans', where: 'tool transferMoney → interrupted', a: '1×', b: '0×' });
    expect(comparison.differences).toContainEqual({ aspect: 'spans', where: 'tool transferMoney → error', a: '0×', b: '1×' });
    // genkit Go 1.12 runs the restart inside the resume's generate, as genkit JS does (1.4 ran it in a trace of its own).
    expect(where('spans')).not.toContain('tool transferMoney → ok (root of its trace)');
    expect(comparison.differences).toContainEqual(expect.objectContaining({ where: 'tool span attributes', a: expect.stringContaining('genkit:metadata:interrupt') }));
    // Both send the answers as `resume`; JS's restart part keeps the interrupt marker, Go's tool.Resume drops it.
    expect(comparison.differences).toContainEqual({ aspect: 'wire', where: 'call 2 · part markers', a: 'only here: answers resume tool-request: interrupt', b: 'only here: —' });
    // Both paused once and were answered by one restart of the same request.
    expect(where('outcome')).not.toContain('call 2 · answers');
    expect(where('outcome')).not.toContain('call 1 · status');
    expect(renderComparisonText(comparison)).toContain('differs (spans) tool transferMoney → error');
  });

  it('a run compared with itself has no differences, and says what matched', async () => {
    const run = await load('lib/runtimes/genkit-go/__fixtures__/go-parallel-pending-output.otlp.json');
    const comparison = compareRuns({ a: run, b: run });
    expect(comparison.differences).toEqual([]);
    expect(comparison.same).toHaveLength(3);
  });
});
