import { requestLabel } from '../loop/loop-model';
import type { GenerateCall, GraphEdge, GraphNode, Resolution, ToolCall } from './run-graph';

const RESOLUTION_WORDS: Record<Resolution['kind'], string> = {
  respond: 'answered by respond (hand-written, tool not re-run)',
  restart: 'restarted: the tool runs again',
  pending: 'pendingOutput reused — not re-run',
  unresolved: 'left unanswered by the resume',
};

function toolStatus(call: ToolCall, running: boolean): { status: string; tone: GraphNode['tone'] } {
  // The runtime's own words, where it has some (a pause keeps its paused / answered words).
  if (call.runtimeState && call.status !== 'interrupted' && call.status !== 'running') {
    return { status: call.runtimeState.words, tone: call.status === 'error' ? 'error' : call.status === 'ok' ? 'ok' : 'neutral' };
  }
  switch (call.status) {
    case 'ok':
      if (call.answeredByHand) return { status: 'answered by hand — the tool did not run', tone: 'answered' };
      return { status: call.restarted ? 'ok — restarted by a resume' : call.parked ? 'ok — parked as pendingOutput' : 'ok', tone: 'ok' };
    case 'error':
      return { status: 'failed', tone: 'error' };
    case 'running':
      return { status: 'running…', tone: 'running' };
    case 'not-run':
      return { status: running ? 'waiting to run' : 'never ran', tone: 'neutral' };
    case 'interrupted': {
      const answered = [...new Set(call.resolvedBy.map((resolution) => resolution.kind))];
      // In the runtime's own words where it has some: held by a hook, approval required, an interrupt, long-running.
      const paused = call.interrupt?.heldBy ? `held by ${call.interrupt.heldBy.by}` : call.interrupt?.pausedAs ? `paused: ${call.interrupt.pausedAs}` : 'paused';
      return { status: answered.length > 0 ? `${paused} — answered by ${answered.join(' / ')}` : `${paused} — waiting for an answer`, tone: 'interrupted' };
    }
  }
}

/** A restart's detail: the resumed metadata and the new input, each when the answer recorded one. */
function restartDetail(resolution: Resolution): string | undefined {
  const parts = [
    ...(resolution.resumed !== undefined ? [`resumed: ${JSON.stringify(resolution.resumed)}`] : []),
    ...(resolution.replacedInput !== undefined ? [`new input ${JSON.stringify(resolution.replacedInput)}`] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function toolNode({ call, generateId, running = false }: { call: ToolCall; generateId: string; running?: boolean }): GraphNode {
  const { status, tone } = toolStatus(call, running);
  const interrupted = call.status === 'interrupted';
  return {
    id: call.id,
    kind: interrupted ? 'tool-interrupt' : 'tool-call',
    generateId,
    traceId: call.traceId,
    spanId: call.spanId,
    label: call.ref ? `${call.name}#${call.ref}` : call.name,
    status,
    tone,
    detail: interrupted ? (call.interrupt && call.interrupt.metadata !== true ? JSON.stringify(call.interrupt.metadata) : undefined) : call.errorMessage,
  };
}

/** A generate's status in words; a paused one says when a resume in view answered it (`firstResume`: generate id → position of its first resume). */
function generateStatus(generate: GenerateCall, firstResume: ReadonlyMap<string, number>): string {
  if (generate.status === 'error') return 'failed';
  if (generate.status === 'running') return 'running…';
  if (generate.status === 'ok') return 'ok';
  const answeredBy = firstResume.get(generate.id);
  return answeredBy !== undefined ? `paused — resumed by generate ${answeredBy + 1}` : 'paused — waiting for an answer';
}

/**
 * Nodes and edges of the run graph: each generate flows left to right through its turns;
 * parallel tool calls fan out from their model call and join at the next one; an interrupt
 * ends its branch as a paused node; dashed `answer` edges run from each interrupt (or parked
 * call) to the resume part that resolved it, across traces.
 */
export function graphElements(generates: GenerateCall[], standaloneToolCalls: ToolCall[] = []): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const addNode = (node: GraphNode) => {
    nodes.push(node);
  };
  const connectOne = (source: string, target: string) => {
    edges.push({ id: `${source}->${target}`, source, target, kind: 'flow' });
  };
  const connect = (sources: string[], target: string) => {
    for (const source of sources) connectOne(source, target);
  };

  // One lookup per generate, not a scan of all of them (a file can hold thousands).
  const firstResume = new Map<string, number>();
  generates.forEach((generate, position) => {
    const answers = generate.resume?.answersGenerateId;
    if (answers !== undefined && !firstResume.has(answers)) firstResume.set(answers, position);
  });

  generates.forEach((generate, position) => {
    const { id } = generate;
    addNode({
      id,
      kind: 'generate',
      generateId: id,
      traceId: generate.traceId,
      spanId: generate.spanId,
      label: `generate ${position + 1}${generate.resume ? ' (resume)' : ''}`,
      status: generate.status === 'ok' && generate.runtimeState ? generate.runtimeState.words : generateStatus(generate, firstResume),
      tone: generate.status === 'ok' ? 'ok' : generate.status,
      detail: generate.model,
      notes: generate.notes.length > 0 ? generate.notes : undefined,
    });
    let frontier = [id];

    if (generate.resume) {
      const next: string[] = [];
      // The restarted calls drawn as their restart's: a node's id is its call's, and every call
      // a build reads has an id of its own (a span is read once), so the call says it — no set
      // of every node id, whose strings would all be hashed for this one question.
      const drawn = new Set<ToolCall>();
      for (const resolution of generate.resume.resolutions) {
        addNode({
          id: resolution.id,
          kind: `resume-${resolution.kind}`,
          generateId: id,
          traceId: generate.traceId,
          label: requestLabel(resolution.request),
          status: resolution.words ?? RESOLUTION_WORDS[resolution.kind],
          tone: resolution.kind === 'unresolved' ? 'error' : 'answered',
          detail:
            resolution.kind === 'respond' || resolution.kind === 'pending'
              ? JSON.stringify(resolution.output)
              : resolution.kind === 'restart'
                ? restartDetail(resolution)
                : undefined,
        });
        connectOne(id, resolution.id);
        if (resolution.answersToolCallId) {
          const { couldAlsoAnswer, alternatives } = generate.resume;
          edges.push({
            id: `${resolution.answersToolCallId}=>${resolution.id}`,
            source: resolution.answersToolCallId,
            target: resolution.id,
            kind: 'answer',
            ...(alternatives ? { ambiguous: true as const, couldAlsoAnswer, alternatives } : {}),
          });
        }
        const ran = generate.resumeToolCalls.find((call) => call.id === resolution.restartedToolCallId);
        if (ran) {
          addNode(toolNode({ call: ran, generateId: id }));
          drawn.add(ran);
          connectOne(resolution.id, ran.id);
          if (ran.status !== 'interrupted') next.push(ran.id);
        } else if (resolution.kind !== 'unresolved') next.push(resolution.id);
      }
      // Restarted tool spans that matched no restart part still belong in the picture.
      for (const call of generate.resumeToolCalls) {
        if (drawn.has(call)) continue;
        addNode(toolNode({ call, generateId: id }));
        connectOne(id, call.id);
        if (call.status !== 'interrupted') next.push(call.id);
      }
      frontier = next.length > 0 ? next : frontier;
    }

    for (const turn of generate.turns) {
      const model = turn.model;
      if (!model) {
        // A turn known only from its tool spans: the tools hang off what came before.
        const next: string[] = [];
        for (const call of turn.toolCalls) {
          addNode(toolNode({ call, generateId: id }));
          connect(frontier, call.id);
          if (call.status === 'ok') next.push(call.id);
        }
        frontier = next.length > 0 ? next : frontier;
        continue;
      }
      addNode({
        id: model.id,
        kind: 'model-call',
        generateId: id,
        traceId: model.traceId,
        spanId: model.spanId,
        label: `turn ${turn.index + 1} · ${model.model}`,
        status:
          model.status === 'error'
            ? 'failed'
            : model.status === 'running'
              ? 'running…'
              : `${model.handWritten ? 'hand-written: ' : ''}${model.toolRequests.length > 0 ? `asked for ${model.toolRequests.length} tool(s)` : 'answered'}`,
        tone: model.handWritten && model.status === 'ok' ? 'answered' : model.status === 'ok' ? 'ok' : model.status,
        detail: model.errorMessage ?? model.text,
      });
      connect(frontier, model.id);
      if (turn.toolCalls.length === 0) {
        frontier = [model.id];
        continue;
      }
      const next: string[] = [];
      for (const call of turn.toolCalls) {
        addNode(toolNode({ call, generateId: id, running: generate.status === 'running' }));
        connectOne(model.id, call.id);
        // A failure the runtime handed to the model as the call's result does not end the branch.
        if (call.loopWentOn || (call.status !== 'interrupted' && call.status !== 'not-run' && call.status !== 'error')) next.push(call.id);
      }
      frontier = next;
    }

    if (generate.status === 'error') {
      const failureId = `${id}:failure`;
      addNode({
        id: failureId,
        kind: 'failure',
        generateId: id,
        traceId: generate.traceId,
        label: generate.errorStatus ?? 'error',
        status: 'failed',
        tone: 'error',
        detail: generate.errorMessage,
        notes: generate.notes.length > 0 ? generate.notes : undefined,
      });
      // The failure hangs off where it happened: a failed or never-run tool call, else the last step.
      const lastTurn = generate.turns[generate.turns.length - 1];
      const culprits = [...(lastTurn?.toolCalls ?? []), ...generate.resumeToolCalls]
        .filter((call) => call.status === 'error' || call.status === 'not-run')
        .map((call) => call.id);
      connect(culprits.length > 0 ? culprits : frontier, failureId);
    } else if (generate.status === 'ok') {
      const finalId = `${id}:final`;
      addNode({
        id: finalId,
        kind: 'final-answer',
        generateId: id,
        traceId: generate.traceId,
        label: 'final answer',
        status: `finishReason: ${generate.finishReason ?? 'unknown'}`,
        tone: 'ok',
        detail: generate.text,
      });
      connect(frontier, finalId);
    }
  });
  // Tools run outside any generate (called directly as actions) still show, on their own.
  for (const call of standaloneToolCalls) {
    const node = toolNode({ call, generateId: '' });
    addNode({
      ...node,
      ...(call.status === 'interrupted' ? { status: 'interrupted outside a generate' } : {}),
      ...(call.notes?.length ? { notes: call.notes } : {}),
    });
  }
  return { nodes, edges };
}
