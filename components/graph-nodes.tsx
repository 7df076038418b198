'use client';

import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo, type ReactNode } from 'react';
import type { ViewNode } from '@/lib/graph/collapse-rounds';

export type RunFlowNode = Node<{ view: ViewNode; marked?: boolean }>;

const KIND_WORDS: Record<ViewNode['kind'], string> = {
  generate: 'generate',
  'model-call': 'model',
  'tool-call': 'tool',
  'tool-interrupt': 'interrupt',
  'resume-respond': 'respond',
  'resume-restart': 'restart',
  'resume-pending': 'pending output',
  'resume-unresolved': 'unanswered',
  'final-answer': 'answer',
  failure: 'failure',
  'collapsed-rounds': 'collapsed',
  ghost: 'paused',
};

function Frame(props: { view: ViewNode; selected: boolean; icon: string; marked?: boolean; children?: ReactNode }) {
  const { view, selected, marked } = props;
  return (
    <div
      className={`graph-node kind-${view.kind} tone-${view.tone}${selected ? ' selected' : ''}${marked ? ' marked' : ''}`}
      data-marked={marked ? 'true' : undefined}
      data-testid="graph-node"
      data-kind={view.kind}
      data-tone={view.tone}
      data-node-id={view.id}
      title={view.detail ?? view.status}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="graph-node-head">
        <span className="graph-node-icon" aria-hidden>
          {props.icon}
        </span>
        <span className="graph-node-kind">{KIND_WORDS[view.kind]}</span>
        {view.notes?.length ? (
          <span className="graph-node-note" data-testid="graph-node-note" title={view.notes.join('\n')}>
            ⚠ known bug
          </span>
        ) : null}
      </div>
      <div className="graph-node-label">{view.label}</div>
      <div className="graph-node-status" data-testid="graph-node-status">
        {view.status}
      </div>
      {props.children}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
}

const GenerateNode = memo(function GenerateNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="⟳" />;
});
const ModelNode = memo(function ModelNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="◆" />;
});
const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="⚙" />;
});
/** An interrupt is a pause: drawn in amber with a pause sign, never as a failure. */
const InterruptNode = memo(function InterruptNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="‖" />;
});
const ResumeNode = memo(function ResumeNode({ data, selected }: NodeProps<RunFlowNode>) {
  const icons: Partial<Record<ViewNode['kind'], string>> = { 'resume-respond': '✎', 'resume-restart': '↻', 'resume-pending': '⇢', 'resume-unresolved': '∅' };
  return <Frame view={data.view} marked={data.marked} selected={selected} icon={icons[data.view.kind] ?? '↻'} />;
});
const EndNode = memo(function EndNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon={data.view.kind === 'failure' ? '✕' : '✓'} />;
});
const CollapsedNode = memo(function CollapsedNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="⋯" />;
});

/** Where a step-by-step run waits: the step that will run next. */
const GhostNode = memo(function GhostNode({ data, selected }: NodeProps<RunFlowNode>) {
  return <Frame view={data.view} marked={data.marked} selected={selected} icon="‖" />;
});

/** Module scope, as React Flow asks: a new object per render would remount every node. */
export const nodeTypes = {
  generate: GenerateNode,
  'model-call': ModelNode,
  'tool-call': ToolNode,
  'tool-interrupt': InterruptNode,
  'resume-respond': ResumeNode,
  'resume-restart': ResumeNode,
  'resume-pending': ResumeNode,
  'resume-unresolved': ResumeNode,
  'final-answer': EndNode,
  failure: EndNode,
  'collapsed-rounds': CollapsedNode,
  ghost: GhostNode,
};
