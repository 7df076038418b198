'use client';

import type { SpanView } from '@/lib/contract/span-view';
import type { TraceSource } from '@/lib/contract/trace-source';
import type { ViewNode } from '@/lib/graph/collapse-rounds';
import { DIALECTS, runtimeView } from '@/lib/runtimes/index';
import type { DialectExplanations } from '@/lib/loop/runtime-dialect';
import { dialectTitle } from '@/lib/runtimes/index';
import type { RunGraph } from '@/lib/graph/run-graph';
import { useState } from 'react';
import { ConversationSection } from './conversation-section';
import { ForkEditor } from './fork-editor';
import { findResolution, graphNodeData } from './graph-node-data';
import { ResumeWorkbench } from './resume-workbench';
import { SpanDetail } from './span-detail';

function Json(props: { title: string; value: unknown; testId?: string }) {
  if (props.value === undefined) return null;
  return (
    <section className="detail-block">
      <h3>{props.title}</h3>
      <pre data-testid={props.testId}>{typeof props.value === 'string' ? props.value : JSON.stringify(props.value, null, 2)}</pre>
    </section>
  );
}

/** How a resume was tied to the interrupt it answers (lib/graph/match-resumes.ts). */
const EVIDENCE_WORDS: Record<'link' | 'history' | 'requests', string> = {
  link: 'named by its OTel span link',
  history: 'matched by its whole conversation',
  requests: 'matched only by the interrupted tool requests',
};

/** The words of the runtime that recorded a call (its dialect's `explains`), or plain ones when none is known. */
const PLAIN_WORDS: DialectExplanations = {
  pause: 'This tool call paused the loop to wait for an answer; it is not a failure.',
  resolutions: { respond: 'Answered with an output — the tool did not run again', restart: 'Ran again with the answer', pending: 'Reused a finished output — not run again', unresolved: 'Left unanswered' },
  sendSpans: '',
};
function wordsOf(runtime: string | undefined): DialectExplanations {
  return DIALECTS.find((dialect) => dialect.id === runtime)?.explains ?? PLAIN_WORDS;
}

/** What the selected graph node stands for, then the span behind it (if it has one). */
export function NodeDetail(props: {
  graph: RunGraph;
  node?: ViewNode;
  /** The server's view of the node's span, when it has one. */
  spanView?: SpanView;
  spanError?: string;
  onSelectNode: (nodeId: string) => void;
  /** Where the graph's spans were recorded: the workbench resumes from there, a fork replays it. */
  resumeSource?: TraceSource;
  /** Where a span's view is served (a resume's message view compares with its interrupt's). */
  spanViewUrl?: (span: { traceId: string; spanId: string }) => string;
}) {
  const { graph, node, onSelectNode } = props;
  const [workbenchFor, setWorkbenchFor] = useState<string | undefined>();
  if (!node) return <aside className="detail empty">Select a node to see what happened there.</aside>;
  const data = graphNodeData(graph, node.id);
  const call = data.toolCall;
  const found = data.resolution;
  const generate = data.generate;
  const runtime = graph.generates.find((candidate) => candidate.id === node.generateId)?.runtime;
  const words = wordsOf(runtime);
  const modelCall = data.modelCall;
  return (
    <aside className="detail" data-testid="node-detail" aria-label="Node detail">
      <header>
        <h2>{node.label}</h2>
        <p className="detail-meta">
          <span className={`status-pill status-${node.tone === 'answered' ? 'interrupted' : node.tone === 'neutral' ? 'running' : node.tone}`} data-testid="node-status">
            {node.status}
          </span>{' '}
          {node.kind}
          {runtime ? (
            <>
              {' · '}
              <span data-testid="node-runtime" data-runtime={runtime}>
                {dialectTitle(runtime)}
              </span>
            </>
          ) : null}
        </p>
      </header>
      {node.notes?.length ? (
        <section className="detail-notes" data-testid="node-notes" aria-label="Known runtime bugs at this node">
          <h3>⚠ Known runtime bug</h3>
          <ul>
            {[...new Set(node.notes)].map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {node.detail && node.kind !== 'tool-interrupt' ? <Json title={node.kind === 'failure' ? 'Error' : 'Detail'} value={node.detail} testId="node-detail-text" /> : null}
      {generate ? (
        <Json
          title="Generate call"
          value={{ model: generate.model, status: generate.status, finishReason: generate.finishReason, turns: generate.turns.length, error: generate.errorMessage }}
        />
      ) : null}
      {generate?.resume?.answersGenerateId ? (
        <p data-testid="resume-link-evidence">
          Resumes{' '}
          <button type="button" className="link" onClick={() => onSelectNode(generate.resume!.answersGenerateId!)}>
            the interrupted generate
          </button>{' '}
          ({EVIDENCE_WORDS[generate.resume.evidence ?? 'requests']}).
        </p>
      ) : null}
      {generate?.resume?.couldAlsoAnswer ? (
        <p className="hint" data-testid="resume-ambiguous">
          The recorded content cannot tell which interrupt this resume answers; it could also answer{' '}
          {generate.resume.couldAlsoAnswer.map((id, position) => (
            <span key={id}>
              {position > 0 ? ', ' : ''}
              {graph.nodes.some((candidate) => candidate.id === id) ? (
                <button type="button" className="link" onClick={() => onSelectNode(id)}>
                  {graph.nodes.find((candidate) => candidate.id === id)!.label}
                </button>
              ) : (
                <a href={`/traces/${id.split(':')[0]}`}>a generate of trace {id.slice(0, 8)}</a>
              )}
            </span>
          ))}
          {(generate.resume.alternatives ?? 0) > generate.resume.couldAlsoAnswer.length ? ` and ${generate.resume.alternatives! - generate.resume.couldAlsoAnswer.length} more` : ''}
          . Resumes started by Loopscope record an OTel span link to the interrupt they answer, and are never ambiguous.
        </p>
      ) : null}
      {call?.interrupt ? (
        <section className="detail-block interrupt-note" data-testid="interrupt-answers">
          <h3>Interrupt</h3>
          <p data-testid="pause-explained">{words.pause}</p>
          {call.interrupt.pausedAs ? (
            <p data-testid="interrupt-paused-as">
              Paused: <strong>{call.interrupt.pausedAs}</strong>
            </p>
          ) : null}
          {call.interrupt.heldBy ? (
            <p className="hold-note" data-testid="interrupt-held-by">
              <strong>Held by {call.interrupt.heldBy.by}</strong> — {call.interrupt.heldBy.evidence}
            </p>
          ) : null}
          <Json title={`Interrupt metadata (seen in the ${call.interrupt.evidence})`} value={call.interrupt.metadata} testId="interrupt-metadata" />
          <h3>Answer</h3>
          {call.resolvedBy.length === 0 ? <p>Not answered yet in the loaded traces.</p> : null}
          <ul>
            {call.resolvedBy.map((resolvedBy) => {
              const answer = findResolution(graph, resolvedBy.nodeId)?.resolution;
              return (
                <li key={resolvedBy.nodeId}>
                  <button type="button" className="link" onClick={() => onSelectNode(resolvedBy.nodeId)}>
                    {resolvedBy.kind}
                  </button>{' '}
                  <code>{JSON.stringify(answer?.kind === 'restart' ? answer.resumed : answer?.output)}</code>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {(node.kind === 'tool-interrupt' || (generate && generate.status === 'interrupted')) && props.resumeSource ? (
        (() => {
          const owner = graph.generates.find((candidate) => candidate.id === node.generateId);
          if (!owner || owner.status !== 'interrupted') return null;
          return workbenchFor === owner.id ? (
            <ResumeWorkbench generateSpanId={owner.spanId} source={props.resumeSource} />
          ) : (
            <button type="button" onClick={() => setWorkbenchFor(owner.id)} data-testid="open-workbench">
              Answer this interrupt…
            </button>
          );
        })()
      ) : null}
      {found ? (
        <section className="detail-block">
          <h3>{found.resolution.words ? `${found.resolution.words} — ${words.resolutions[found.resolution.kind]}` : words.resolutions[found.resolution.kind]}</h3>
          <Json title="Request" value={found.resolution.request} />
          <Json title="Output" value={found.resolution.output} testId="resolution-output" />
          <Json title="Resumed metadata" value={found.resolution.resumed} />
          <Json title="Replacement input" value={found.resolution.replacedInput} />
          {found.resolution.answersToolCallId ? (
            <button type="button" className="link" onClick={() => onSelectNode(found.resolution.answersToolCallId!)}>
              Show the interrupt it answers
            </button>
          ) : (
            <p className="hint">The interrupted generate it answers is not among the loaded traces.</p>
          )}
        </section>
      ) : null}
      {props.resumeSource && call?.status === 'ok' && call.spanId && !call.answeredByHand ? (
        <ForkEditor key={call.id} source={props.resumeSource} kind="tool" traceId={call.traceId} spanId={call.spanId} initial={call.output} />
      ) : null}
      {/* A forked model answer is a genkit message: AI SDK recordings fork from tool calls only. */}
      {props.resumeSource && modelCall?.status === 'ok' && runtimeView(runtime).forksModelAnswers ? (
        <ForkEditor
          key={modelCall.id}
          source={props.resumeSource}
          kind="model"
          traceId={modelCall.traceId}
          spanId={modelCall.spanId}
          initial={{ role: 'model', content: [...(modelCall.text ? [{ text: modelCall.text }] : []), ...modelCall.toolRequests.map((toolRequest) => ({ toolRequest }))] }}
        />
      ) : null}
      {generate && props.spanView?.conversation ? (
        <ConversationSection
          key={generate.id}
          conversation={props.spanView.conversation}
          interruptedViewUrl={(() => {
            const answered = generate.resume?.answersGenerateId ? graph.generates.find((candidate) => candidate.id === generate.resume!.answersGenerateId) : undefined;
            return answered && props.spanViewUrl ? props.spanViewUrl({ traceId: answered.traceId, spanId: answered.spanId }) : undefined;
          })()}
        />
      ) : null}
      <SpanDetail view={props.spanView} error={props.spanError} embedded />
    </aside>
  );
}
