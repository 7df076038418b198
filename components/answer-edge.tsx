'use client';

import { BaseEdge, getBezierPath, type Edge, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';

/** What an answer edge says: its words, and whether the content could not decide it (a guess, with what else it could answer). */
export type AnswerEdgeData = { kind: 'answer'; ambiguous: boolean; words: string };
export type AnswerFlowEdge = Edge<AnswerEdgeData, 'answer'>;

/**
 * The dashed edge from an interrupt (or a parked call) to the resume that answered it. A sure
 * answer carries its words as a tooltip only — the legend says what a dashed edge is, and a
 * label in the middle of a long edge lands on the nodes it crosses; a guessed answer keeps its
 * label, which names the other interrupts it could answer.
 */
export const AnswerEdge = memo(function AnswerEdge(props: EdgeProps<AnswerFlowEdge>) {
  const [path, labelX, labelY] = getBezierPath(props);
  const words = props.data?.words ?? 'answered by';
  return (
    <>
      <title>{words}</title>
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        style={props.style}
        interactionWidth={16}
        {...(props.data?.ambiguous ? { label: words, labelX, labelY, labelStyle: props.labelStyle, labelBgStyle: props.labelBgStyle, labelShowBg: true } : {})}
      />
    </>
  );
});

export const edgeTypes = { answer: AnswerEdge };
