import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerProbeTable, answerProbeTableIn, TABLE_BEGIN, TABLE_END, withAnswerProbeTable } from './answer-probe-table';
import { recordedAnswerProbes, recordedAnswerProbesPath, type RecordedAnswerProbe } from './answer-probes';
import { PROJECT_DIR } from './framework-fixtures';

/** Every runtime with recorded answer probes. */
const RUNTIMES = readdirSync(path.join(PROJECT_DIR, 'lib', 'runtimes')).filter((runtime) => existsSync(recordedAnswerProbesPath(runtime)));

describe('the answer-probe tables of the guides', () => {
  it('finds the six frameworks’ recorded probes', () => {
    expect(RUNTIMES.sort()).toEqual(['google-adk', 'langgraph', 'mastra', 'openai-agents', 'pydantic-ai', 'strands']);
  });

  for (const runtime of RUNTIMES) {
    it(`docs/guides/${runtime}.md carries the table of what ${runtime} did, as recorded`, () => {
      const probes = recordedAnswerProbes(runtime);
      const table = answerProbeTableIn(readFileSync(path.join(PROJECT_DIR, 'docs', 'guides', `${runtime}.md`), 'utf8'));
      expect(table, 'npm run fixtures -- answer-probes writes it').toBe(answerProbeTable(probes));
      // One row per probe, under the header and its rule.
      expect(table!.split('\n')).toHaveLength(probes.length + 2);
    });
  }
});

describe('answerProbeTable', () => {
  const probe = (result: Partial<RecordedAnswerProbe['result']>, note?: string): RecordedAnswerProbe => ({
    name: 'approve | twice',
    request: { case: 'approval' },
    ...(note !== undefined ? { note } : {}),
    result: { accepted: true, error: null, toolsRun: [], outcome: 'completed', ...result },
  });

  it('keeps an error exact in code, pipes escaped, whatever backticks or tags it holds', () => {
    const table = answerProbeTable([probe({ accepted: false, outcome: null, error: { type: 'KeyError', message: "'id=<a> | `x`'\nnext line" } })]);
    expect(table.split('\n')[2]).toBe("| approve \\| twice | **refused** | — | — | ``KeyError: 'id=<a> \\| `x`' next line`` |");
    // A message that starts or ends with a backtick is padded inside its fence.
    expect(answerProbeTable([probe({ accepted: false, error: { type: 'E', message: '`x`' } })]).split('\n')[2]).toContain('`` E: `x` `` |');
  });

  it('names each tool that ran by its call, and adds the note column only when a probe has a note', () => {
    const ran = probe({ toolsRun: [{ toolCallId: 'call_1', tool: 'book', status: 'ok' }] });
    expect(answerProbeTable([ran]).split('\n')[0]).toBe('| answer | verdict | tools that ran | outcome | error (exact) |');
    expect(answerProbeTable([ran, probe({}, 'the **last** wins')]).split('\n').slice(2)).toEqual([
      '| approve \\| twice | accepted | book (call_1): ok | completed |  |  |',
      '| approve \\| twice | accepted | — | completed |  | the **last** wins |',
    ]);
  });

  it('replaces only what stands between the markers, and refuses a guide without them', () => {
    const text = `# Guide\n\n${TABLE_BEGIN}\n| old |\n${TABLE_END}\n\nAfter.\n`;
    expect(withAnswerProbeTable({ text, table: '| new |', guide: 'guide.md' })).toBe(`# Guide\n\n${TABLE_BEGIN}\n| new |\n${TABLE_END}\n\nAfter.\n`);
    expect(() => withAnswerProbeTable({ text: '# Guide\n', table: '| new |', guide: 'docs/guides/x.md' })).toThrow(/docs\/guides\/x\.md has no .* markers/);
  });
});
