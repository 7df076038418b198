/**
 * A made-up runtime for testing the seam: its spans say `toy.kind` = `loop` | `think` | `tool`,
 * a tool's name is `toy.tool`, its outcome `toy.result` (`ok`, `paused`, `failed`). Everything
 * this runtime means lives in this one folder; registering it is one line in a dialect list.
 */
import { spanKey, type Span } from '../../../trace/span';
import type { SpanClassification } from '../../../trace/span-classification';
import type { GenerateCall, ToolCall, Turn } from '../../loop-model';
import type { ReadCall, RuntimeDialect } from '../../runtime-dialect';
import { enclosingCall, type SpanIndex } from '../../span-index';
import { nanosToMillis } from '../../../trace/span';

const kindOf = (span: Span) => span.attributes['toy.kind'];

function classify(span: Span): SpanClassification {
  const kind = kindOf(span);
  const result = span.attributes['toy.result'];
  const role = kind === 'loop' ? 'generate' : kind === 'think' ? 'model' : kind === 'tool' ? 'tool' : 'other';
  const outcome = span.endTimeUnixNano === undefined ? 'running' : result === 'paused' ? 'interrupted' : result === 'failed' ? 'error' : 'ok';
  return {
    role,
    label: String(span.attributes['toy.tool'] ?? span.attributes['toy.model'] ?? span.name),
    outcome,
    restarted: false,
    errorMessage: outcome === 'error' ? String(span.attributes['toy.error'] ?? 'failed') : undefined,
  };
}

function toolCall(index: SpanIndex, span: Span): ToolCall {
  const classification = index.classify(span);
  return {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    name: classification.label,
    input: span.attributes['toy.input'],
    output: span.attributes['toy.output'],
    status: classification.outcome,
    restarted: false,
    parked: false,
    errorMessage: classification.errorMessage,
    resolvedBy: [],
    ...(classification.outcome === 'interrupted' ? { interrupt: { metadata: true, evidence: 'attribute' as const } } : {}),
  };
}

/** A toy loop: its children in start order, a `think` span opening each turn, the tools after it belonging to it. */
function readCall(options: { index: SpanIndex; root: Span; flowSpanId?: string }): ReadCall {
  const { index, root } = options;
  const turns: Turn[] = [];
  for (const child of index.childrenOf(root)) {
    const classification = index.classify(child);
    if (classification.role === 'model') {
      turns.push({
        index: turns.length,
        generateSpanId: root.spanId,
        model: { id: spanKey(child), traceId: child.traceId, spanId: child.spanId, model: classification.label, status: classification.outcome === 'error' ? 'error' : 'ok', toolRequests: [], text: child.attributes['toy.text'] as string | undefined },
        toolCalls: [],
      });
    } else if (classification.role === 'tool' && turns.length > 0) turns[turns.length - 1].toolCalls.push(toolCall(index, child));
  }
  for (const turn of turns) {
    if (turn.model) turn.model.toolRequests = turn.toolCalls.map((call) => ({ name: call.name, input: call.input }));
  }
  const outcome = index.classify(root).outcome;
  const paused = turns.some((turn) => turn.toolCalls.some((call) => call.status === 'interrupted'));
  const status: GenerateCall['status'] = outcome === 'running' ? 'running' : outcome === 'error' ? 'error' : paused ? 'interrupted' : 'ok';
  const last = turns[turns.length - 1]?.model;
  return {
    call: {
      id: spanKey(root),
      traceId: root.traceId,
      spanId: root.spanId,
      startTime: nanosToMillis(root.startTimeUnixNano),
      endTime: root.endTimeUnixNano ? nanosToMillis(root.endTimeUnixNano) : undefined,
      status,
      finishReason: status === 'ok' ? 'done' : status === 'interrupted' ? 'paused' : undefined,
      errorMessage: status === 'error' ? index.classify(root).errorMessage : undefined,
      model: last?.model,
      turns,
      resumeToolCalls: [],
      pendingInterrupts: [],
      text: status === 'ok' ? last?.text : undefined,
      notes: [],
    },
  };
}

export const toyLoop: RuntimeDialect = {
  id: 'toy-loop',
  title: 'Toy loop',
  explains: {
    pause: 'The toy loop waits for an answer here.',
    resolutions: { respond: 'Answered', restart: 'Ran again', pending: 'Reused', unresolved: 'Left unanswered' },
    sendSpans: 'The toy loop writes its spans by hand.',
  },
  claims: (span) => kindOf(span) !== undefined,
  classify,
  enclosedByCall: (index, span) => enclosingCall(index, span).call !== undefined,
  readCall,
  readStandaloneTool: toolCall,
  spanValues: (span) => ({ input: span.attributes['toy.input'], output: span.attributes['toy.output'], attributeKeys: ['toy.input', 'toy.output'] }),
  runningTool: (span) => (kindOf(span) === 'tool' ? { name: String(span.attributes['toy.tool'] ?? span.name) } : undefined),
  // The toy loop says how a step ended in `toy.result`, why it failed in `toy.error`.
  closeOpenSpan: (_span, ending) => ({ attributes: { 'toy.result': 'failed', 'toy.error': ending.message }, status: { code: 2, message: ending.message } }),
};
