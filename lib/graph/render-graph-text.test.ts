import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import type { Span } from '../spans/span';
import { buildSpan } from '../spans/testing/build-span';
import { buildRunGraph } from './build-run-graph';
import { renderGraphText } from './render-graph-text';
import type { RunGraph } from './run-graph';

const spansOf = (name: string) => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', `${name}.otlp.json`));
const fixture = async (name: string) => buildRunGraph(await spansOf(name));
const linesOf = (graph: RunGraph) => renderGraphText(graph).split('\n');
const isResumeRoot = (span: Span) => span.parentSpanId === undefined && String(span.attributes['genkit:input']).includes('"resume"');

describe('renderGraphText', () => {
  it('renders a whole interrupted run and its resume: parked call, interrupt, restart, pendingOutput, answers', async () => {
    const graph = await fixture('pending-output');
    const [original, resume] = graph.generates;
    expect(renderGraphText(graph)).toBe(
      [
        '2 trace(s) · 2 generate(s) · 2 model call(s) · 3 tool call(s) · 1 interrupt(s) · answered: 0 respond, 1 restart, 1 pendingOutput · 0 failed · finishReason: stop',
        '',
        `generate 1  trace ${original.traceId}  fixture/pending-output  ⏸ interrupted — waiting for an answer`,
        '  turn 1  fixture/pending-output  → 2 tool request(s)',
        '    ✓ lookupAccount#la1  ok (parked as pendingOutput)  → answered by pending in generate 2',
        '    ⏸ transferMoney#tx1  paused — interrupt {"reason":"approval","to":"bob","amount":300}  → answered by restart in generate 2',
        '',
        `generate 2 (resume of generate 1)  trace ${resume.traceId}  fixture/pending-output  ✓ stop`,
        '  resume',
        '    lookupAccount#la1  pendingOutput reused — not re-run',
        '    transferMoney#tx1  restart, resumed {"approvedBy":"dave"}',
        '      ✓ transferMoney#tx1  ok (restarted)',
        '  turn 1  fixture/pending-output  → Bob has 1200; transferred 300.',
        '  final answer: Bob has 1200; transferred 300.',
        '',
      ].join('\n'),
    );
  });

  it('the summary line shows each count of the summary in its own place', async () => {
    const graph = await fixture('plain-round');
    graph.summary = { traces: 1, generates: 2, modelCalls: 3, toolCalls: 4, interrupts: 5, responds: 6, restarts: 7, pendingReused: 8, errors: 9, finishReason: 'length' };
    expect(linesOf(graph)[0]).toBe(
      '1 trace(s) · 2 generate(s) · 3 model call(s) · 4 tool call(s) · 5 interrupt(s) · answered: 6 respond, 7 restart, 8 pendingOutput · 9 failed · finishReason: length',
    );
  });

  it('a plain round: ok tool calls, the model’s text and the final answer', async () => {
    const graph = await fixture('plain-round');
    expect(linesOf(graph).slice(2)).toEqual([
      `generate 1  trace ${graph.generates[0].traceId}  fixture/plain-round  ✓ stop`,
      '  turn 1  fixture/plain-round  → 2 tool request(s)',
      '    ✓ getWeather#w1  ok',
      '    ✓ getTime#t1  ok',
      '  turn 2  fixture/plain-round  → It is 09:30 in Paris and 12°C with rain.',
      '  final answer: It is 09:30 in Paris and 12°C with rain.',
      '',
    ]);
  });

  it('a failed tool: ✗ with its message, and the generate failed with it', async () => {
    const lines = linesOf(await fixture('tool-error'));
    expect(lines[0]).toContain('· 1 failed · finishReason: error');
    expect(lines[2]).toMatch(/^generate 1 {2}trace [0-9a-f]{32} {2}fixture\/tool-error {2}✗ failed: boom: backend down$/);
    expect(lines).toContain('    ✗ flakyBackend#f1  failed: boom: backend down');
  });

  it('a request that never ran: ∅ never ran', async () => {
    const lines = linesOf(await fixture('unknown-tool'));
    expect(lines).toContain('    ∅ launchRocket#r1  never ran');
    expect(lines[2]).toMatch(/✗ failed: NOT_FOUND: Tool launchRocket not found$/);
  });

  it('a running generate and a running tool: …', async () => {
    // plain-round while getWeather still runs: the generate and that tool span are open, turn 2 has not started.
    const spans = await spansOf('plain-round');
    const root = spans.find((span) => span.parentSpanId === undefined)!;
    const open = (span: Span): Span => ({ ...span, endTimeUnixNano: undefined });
    const running = spans
      .filter((span) => span === root || span.parentSpanId === root.spanId)
      .filter((span) => span.attributes['genkit:type'] !== 'util' || span === root)
      .map((span) => (span === root || span.attributes['genkit:name'] === 'getWeather' ? open(span) : span));
    const lines = linesOf(buildRunGraph(running));
    expect(lines[0]).toContain('finishReason: none');
    expect(lines[2]).toMatch(/fixture\/plain-round {2}… running$/);
    expect(lines).toContain('    … getWeather#w1  running');
    expect(lines).toContain('    ✓ getTime#t1  ok');
    expect(lines.some((line) => line.includes('final answer'))).toBe(false);
  });

  it('a respond resume: what was answered by hand, and no tool line under it', async () => {
    const lines = linesOf(await fixture('interrupt-respond'));
    expect(lines).toContain('    ⏸ askApproval#ap1  paused — interrupt {"kind":"approval","question":"Refund order 42?"}  → answered by respond in generate 2');
    const resume = lines.indexOf('    askApproval#ap1  respond {"approved":true,"by":"carol"}');
    expect(resume).toBeGreaterThan(0);
    expect(lines[resume + 1]).toMatch(/^ {2}turn 1 /);
  });

  it('a resume that leaves a request unanswered says so, and its generate failed', async () => {
    const lines = linesOf(await fixture('unanswered-interrupt'));
    expect(lines).toContain('    askApproval#q1  respond {"approved":true,"by":"erin"}');
    expect(lines).toContain('    askApproval#q2  left unanswered');
    expect(lines.find((line) => line.startsWith('generate 2'))).toMatch(/^generate 2 \(resume of generate 1\) .*✗ failed: INVALID_ARGUMENT: Unresolved tool request 'askApproval#q2'/);
  });

  it('a restart with replaceInput shows the new input, and the bug note of its generate', async () => {
    const lines = linesOf(await fixture('bug2-replace-input'));
    expect(lines).toContain('    transferMoney#tx1  restart, resumed {"approvedBy":"alice"}, new input {"to":"bob","amount":50}');
    expect(lines).toContain('      ✓ transferMoney#tx1  ok (restarted)');
    // The note comes last in its generate's block.
    expect(lines.slice(-3)).toEqual(['  final answer: Done.', '  note: genkit 1.42 bug 2: replaceInput ran the tool with the new input, but the history the model sees keeps the original input.', '']);
  });

  it('a restarted tool that interrupts again is shown under its restart as paused (bug 1)', async () => {
    const lines = linesOf(await fixture('bug1-restart-reinterrupts'));
    const restart = lines.indexOf('    lockVault#v1  restart, resumed {"code":"123456"}');
    expect(restart).toBeGreaterThan(0);
    expect(lines[restart + 1]).toBe('      ⏸ lockVault#v1  paused — interrupt {"reason":"second-factor","vault":"main"}');
    expect(lines).toContain('  note: genkit 1.42 bug 1: the restarted tool interrupted again and genkit crashed with a TypeError instead of a FAILED_PRECONDITION error.');
  });

  it('an interrupt without metadata is still paused, and answered', async () => {
    const lines = linesOf(await fixture('interrupt-no-metadata'));
    expect(lines.find((line) => line.includes('askUser#u1') && line.includes('⏸'))).toMatch(/^ {4}⏸ askUser#u1 {2}paused — interrupt .*→ answered by respond in generate 2$/);
    expect(lines).toContain('    confirmDelete#d1  restart, resumed true');
  });

  it('a guessed link names the other interrupts the resume could answer', async () => {
    const lines = linesOf(await fixture('identical-conversations'));
    const headers = lines.filter((line) => line.startsWith('generate '));
    expect(headers).toHaveLength(4);
    expect(headers[2]).toMatch(/^generate 3 \(resume of generate 2; ambiguous: could also answer generate 1\) /);
    expect(headers[3]).toMatch(/^generate 4 \(resume of generate 1; ambiguous: could also answer generate 2\) /);
  });

  it('a resume whose interrupted generate is not loaded is just "(resume)"', async () => {
    const spans = await spansOf('interrupt-restart');
    const resumeTrace = spans.find(isResumeRoot)!.traceId;
    const lines = linesOf(buildRunGraph(spans.filter((span) => span.traceId === resumeTrace)));
    expect(lines[2]).toMatch(/^generate 1 \(resume\) {2}trace /);
    expect(lines).toContain('    transferMoney#tx1  restart, resumed {"approvedBy":"alice"}');
  });

  it('a turn known only from its tool spans says it has no model span', async () => {
    const spans = (await spansOf('interrupt-restart')).filter((span) => span.attributes['genkit:metadata:subtype'] !== 'model');
    const lines = linesOf(buildRunGraph(spans));
    const turn = lines.indexOf('  turn 1  (no model span)');
    expect(turn).toBeGreaterThan(0);
    expect(lines[turn + 1]).toMatch(/^ {4}⏸ transferMoney {2}paused — interrupt /);
  });

  it('tool calls run outside any generate get their own section, with their notes (bug 5)', async () => {
    const lines = linesOf(await fixture('bug5-tool-alone'));
    expect(lines).toEqual([
      '1 trace(s) · 0 generate(s) · 0 model call(s) · 1 tool call(s) · 1 interrupt(s) · answered: 0 respond, 0 restart, 0 pendingOutput · 0 failed · finishReason: none',
      '',
      'tool calls outside any generate',
      '  transferMoney  interrupted outside a generate  {"reason":"approval","to":"mallory","amount":9}',
      '  note: genkit 1.42 bug 5: an interrupting tool run on its own gives its caller an error with an empty message; only generate turns an interrupt into a pause.',
      '',
    ]);
  });

  it('an empty graph is just the summary line', () => {
    expect(renderGraphText(buildRunGraph([]))).toBe(
      '0 trace(s) · 0 generate(s) · 0 model call(s) · 0 tool call(s) · 0 interrupt(s) · answered: 0 respond, 0 restart, 0 pendingOutput · 0 failed · finishReason: none\n',
    );
  });

  it('cuts long texts: model text at 80 characters, the final answer at 120, with an ellipsis', async () => {
    const graph = await fixture('plain-round');
    const long = 'x'.repeat(300);
    graph.generates[0].turns[1].model!.text = long;
    graph.generates[0].text = long;
    const lines = linesOf(graph);
    expect(lines).toContain(`  turn 2  fixture/plain-round  → ${'x'.repeat(79)}…`);
    expect(lines).toContain(`  final answer: ${'x'.repeat(119)}…`);
    // A text of exactly the limit is not cut.
    graph.generates[0].text = 'y'.repeat(120);
    expect(linesOf(graph)).toContain(`  final answer: ${'y'.repeat(120)}`);
  });

  it('keeps one entry per line when a recorded message spans several lines', async () => {
    // invalid-input's genkit message is a ~30-line schema dump: only its first line may show.
    const lines = linesOf(await fixture('invalid-input'));
    const structural = (line: string) => line === '' || line.startsWith('generate ') || line.startsWith('  ') || line === 'tool calls outside any generate';
    expect(lines.slice(1).filter((line) => !structural(line))).toEqual([]);
  });
});

describe('renderGraphText on hostile names', () => {
  it('keeps the CLI text graph free of raw escapes and line breaks from recorded names', () => {
    const name = 'evil\u001b[2J\nforged line';
    const span = buildSpan({ name, attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'tool', 'genkit:name': name, 'genkit:state': 'success' } });
    const text = renderGraphText(buildRunGraph([span]));
    expect(text).toContain('evil\\u001b[2J\\u000aforged line');
    expect(text).not.toContain('\u001b');
    expect(text.split('\n').some((line) => line.startsWith('forged line'))).toBe(false);
  });
});
