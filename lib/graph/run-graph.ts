/**
 * The run graph: what a set of spans says about generate calls, their model turns, tool
 * calls, interrupts and the resumes that answered them. Plain data, built by
 * `buildRunGraph(spans)`; components render it and compute nothing. The calls themselves are
 * the loop model of lib/loop/loop-model.ts (re-exported here with the graph's own types).
 */
import type { GenerateCall } from '../loop/loop-model';

export type {
  GenerateCall,
  InterruptInfo,
  ModelCall,
  Resolution,
  ResolutionKind,
  ToolCall,
  ToolCallStatus,
  ToolRequestData,
  Turn,
} from '../loop/loop-model';

export type GraphNodeKind =
  | 'generate'
  | 'model-call'
  | 'tool-call'
  | 'tool-interrupt'
  | 'resume-respond'
  | 'resume-restart'
  | 'resume-pending'
  | 'resume-unresolved'
  | 'final-answer'
  | 'failure';

export interface GraphNode {
  id: string;
  kind: GraphNodeKind;
  generateId: string;
  traceId: string;
  spanId?: string;
  label: string;
  /** Short status words, e.g. "paused — waiting for an answer", "answered by respond". */
  status: string;
  /** ok | error | interrupted | running | answered: drives the colour. */
  tone: 'ok' | 'error' | 'interrupted' | 'running' | 'answered' | 'neutral';
  /** One line of detail (error message, final text, ref). */
  detail?: string;
  /** Known genkit misbehaviours shown at this node. */
  notes?: string[];
}

export type GraphEdgeKind = 'flow' | 'answer';

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  /** `answer`: dashed, from an interrupt (or parked call) to the resume that resolved it. */
  kind: GraphEdgeKind;
  /** An answer edge the recorded content cannot prove: the resume could also answer other interrupts. */
  ambiguous?: true;
  /** For an ambiguous answer edge: the generates the resume could also answer (the nearest few; their node ids when they are drawn). */
  couldAlsoAnswer?: string[];
  /** For an ambiguous answer edge: how many other generates in all. */
  alternatives?: number;
}

/** The summary object of Graph JSON, exactly as docs/architecture.md defines it. */
export interface GraphSummary {
  traces: number;
  generates: number;
  modelCalls: number;
  toolCalls: number;
  interrupts: number;
  responds: number;
  restarts: number;
  pendingReused: number;
  errors: number;
  finishReason: string | null;
}

export interface RunGraph {
  summary: GraphSummary;
  generates: GenerateCall[];
  nodes: GraphNode[];
  edges: GraphEdge[];
}
