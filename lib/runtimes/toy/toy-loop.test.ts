import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../graph/build-run-graph';
import { loadTraceFile } from '../../store/load-trace-file';
import { DIALECTS } from '../index';
import { toyLoop } from './read';

/**
 * The measure of the seam (issue 11): a runtime Loopscope has never heard of is drawn by adding
 * one folder (this one) and one entry in the dialect list — nothing in lib/graph changes.
 */
const WITH_TOY = [...DIALECTS, toyLoop];
const toySpans = () => loadTraceFile(path.join(process.cwd(), 'lib', 'runtimes', 'toy', 'toy-loop.otlp.json'));
const genkitSpans = () => loadTraceFile(path.join(process.cwd(), 'lib', 'graph', '__fixtures__', 'interrupt-restart.otlp.json'));

describe('a toy dialect registered with one line', () => {
  it('draws its rounds: parallel tools, a failed tool, an answer, and a pause — never an error', async () => {
    const graph = buildRunGraph(await toySpans(), { dialects: WITH_TOY });
    expect(graph.summary).toEqual({ traces: 1, generates: 2, modelCalls: 4, toolCalls: 4, interrupts: 1, responds: 0, restarts: 0, pendingReused: 0, errors: 0, finishReason: 'paused' });
    const [first, second] = graph.generates;
    expect(first.turns.map((turn) => turn.toolCalls.map((call) => `${call.name}:${call.status}`))).toEqual([['lookup:ok', 'forecast:ok'], ['notify:error'], []]);
    expect(first.text).toBe('Rain, 3 mm; grey for two days.');
    expect(second.status).toBe('interrupted');
    const pause = graph.nodes.find((node) => node.kind === 'tool-interrupt')!;
    expect(pause).toMatchObject({ label: 'approve', tone: 'interrupted', status: 'paused — waiting for an answer' });
    expect(graph.nodes.filter((node) => node.kind === 'final-answer')).toHaveLength(1);
    // The two parallel tools fan out of the first model call.
    const model = first.turns[0].model!.id;
    expect(graph.edges.filter((edge) => edge.source === model).map((edge) => edge.target)).toEqual(first.turns[0].toolCalls.map((call) => call.id));
  });

  it('is not drawn without its registration: its spans are "other" to the registered dialects', async () => {
    expect(buildRunGraph(await toySpans()).summary).toMatchObject({ generates: 0, modelCalls: 0, toolCalls: 0 });
  });

  it('draws side by side with genkit in one trace set, each read by its own dialect', async () => {
    const genkit = await genkitSpans();
    const mixed = buildRunGraph([...genkit, ...(await toySpans())], { dialects: WITH_TOY });
    const alone = buildRunGraph(genkit);
    expect(mixed.summary.generates).toBe(alone.summary.generates + 2);
    expect(mixed.summary.traces).toBe(alone.summary.traces + 1);
    // genkit's interrupt and the resume that answered it are linked as without the toy.
    const resumes = (graph: typeof mixed) => graph.generates.filter((generate) => generate.resume).map((generate) => generate.resume!.answersGenerateId);
    expect(resumes(mixed)).toEqual(resumes(alone));
    expect(mixed.edges.filter((edge) => edge.kind === 'answer')).toHaveLength(1);
  });
});
