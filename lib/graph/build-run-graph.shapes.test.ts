import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../runtimes/index';
import { loadTraceFile } from '../store/load-trace-file';
import { goldenSources } from './__goldens__/golden-sources';
import { buildRunGraph } from './build-run-graph';
import type { GenerateCall, ToolCall } from './run-graph';

/**
 * The objects a build makes many of have one shape each, whatever runtime recorded them: the
 * same fields in the same order (an absent one present as undefined; JSON leaves it out). V8
 * gives objects of one shape one hidden class; objects built by spreading one into another got
 * one each (2,578 classes for 2,598 calls of the graph-build benchmark), and every later pass
 * over them — linking, notes, graph elements, the summary — ran on megamorphic lookups
 * (docs/performance.md, "Graph build").
 */
const sources = goldenSources();
const graphs = async () => Promise.all(sources.map(async (source) => ({ name: path.basename(source.file), graph: buildRunGraph(await loadTraceFile(source.file)) })));

const callsOf = (generate: GenerateCall): ToolCall[] => [...generate.resumeToolCalls, ...generate.turns.flatMap((turn) => turn.toolCalls)];

describe('the shapes of what a build reads', () => {
  it('every call has the same fields in the same order, in every runtime', async () => {
    const shapes = new Map<string, string[]>();
    for (const { name, graph } of await graphs()) {
      for (const generate of graph.generates) {
        const shape = Object.keys(generate).join(',');
        shapes.set(shape, [...(shapes.get(shape) ?? []), `${name} (${generate.runtime})`]);
      }
    }
    expect([...shapes.keys()]).toEqual([
      'id,traceId,spanId,flowSpanId,startTime,endTime,status,finishReason,errorMessage,errorStatus,model,turns,resumeToolCalls,resume,pendingInterrupts,text,notes,runtimeState,runtime',
    ]);
    // The sources hold calls of every registered runtime.
    const runtimes = new Set((await graphs()).flatMap(({ graph }) => graph.generates.map((generate) => generate.runtime)));
    expect([...runtimes].sort()).toEqual(DIALECTS.map((dialect) => dialect.id).sort());
  });

  it('every AI SDK call that no tool span ran for has one shape, whatever became of it', async () => {
    const shapes = new Set<string>();
    const outcomes = new Set<string>();
    for (const { graph } of await graphs()) {
      for (const generate of graph.generates.filter((candidate) => candidate.runtime === 'ai-sdk')) {
        for (const call of callsOf(generate).filter((candidate) => candidate.spanId === undefined)) {
          shapes.add(Object.keys(call).join(','));
          outcomes.add(call.runtimeState?.code ?? call.status);
        }
      }
    }
    // Pending, an unknown tool, an invalid input (and denied, not offered, provider-executed…): one shape for all.
    expect([...outcomes].sort()).toEqual(['InvalidToolInputError', 'NoSuchToolError', 'interrupted']);
    expect([...shapes]).toEqual(['id,traceId,name,ref,input,status,restarted,parked,resolvedBy,output,errorMessage,runtimeState,loopWentOn,interrupt']);
  });
});
