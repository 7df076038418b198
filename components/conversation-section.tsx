'use client';

import { useMemo, useState } from 'react';
import type { ConversationView, MessagePartView, MessageView } from '@/lib/contract/conversation-view';
import { diffConversation, type PartChange } from '@/lib/graph/conversation-diff';
import { useSpanView } from './use-span-view';

/** Markers the interrupt model turns on: highlighted wherever they appear. */
const PAUSE_MARKERS = new Set(['interrupt', 'pendingOutput', 'resolvedInterrupt', 'resumed', 'replacedInput', 'denied', 'tool-approval-request', 'tool-approval-response']);

const KIND_WORDS: Record<MessagePartView['kind'], string> = {
  text: 'text',
  'tool-request': 'tool request',
  'tool-response': 'tool response',
  'approval-request': 'approval request',
  'approval-response': 'approval response',
  media: 'media',
  other: 'part',
};

const CHANGE_WORDS: Partial<Record<PartChange, string>> = { markers: 'markers rewritten', content: 'changed', added: 'new' };

function Value(props: { value: unknown }) {
  if (props.value === undefined) return null;
  if (typeof props.value === 'string') return <span className="message-text">{props.value}</span>;
  return <pre className="message-value">{JSON.stringify(props.value, null, 2)}</pre>;
}

function Part(props: { part: MessagePartView; change?: PartChange; before?: MessagePartView }) {
  const { part, change } = props;
  return (
    <li className={`message-part kind-${part.kind}${change && change !== 'same' ? ` change-${change}` : ''}`} data-testid="message-part" data-kind={part.kind} data-change={change}>
      <div className="message-part-head">
        <span className="message-part-kind">{KIND_WORDS[part.kind]}</span>
        {part.name || part.ref ? (
          <code>
            {part.name ?? ''}
            {part.ref ? `#${part.ref}` : ''}
          </code>
        ) : null}
        {part.markers.map((marker) => (
          <span key={marker.name} className={`marker${PAUSE_MARKERS.has(marker.name) ? ' marker-pause' : ''}`} data-testid="message-marker" title={marker.value === undefined ? marker.name : JSON.stringify(marker.value)}>
            {marker.name}
          </span>
        ))}
        {change && CHANGE_WORDS[change] ? <span className="change-badge">{CHANGE_WORDS[change]}</span> : null}
      </div>
      <Value value={part.value} />
      {change === 'markers' && props.before ? (
        <p className="hint">was: {props.before.markers.map((marker) => marker.name).join(', ') || 'no markers'}</p>
      ) : null}
    </li>
  );
}

function Message(props: { message: MessageView; status?: 'same' | 'changed' | 'added'; parts?: { change: PartChange; before?: MessagePartView }[] }) {
  return (
    <li className={`message role-${props.message.role}${props.status ? ` status-${props.status}` : ''}`} data-testid="message" data-role={props.message.role} data-status={props.status}>
      <div className="message-role">
        {props.message.role}
        {props.status && props.status !== 'same' ? <span className="change-badge">{props.status === 'added' ? 'added by the resume' : 'changed'}</span> : null}
      </div>
      <ul className="message-parts">
        {props.message.parts.map((part, index) => (
          <Part key={index} part={part} change={props.parts?.[index]?.change} before={props.parts?.[index]?.before} />
        ))}
      </ul>
    </li>
  );
}

/**
 * The message view of a call: the history it sent, the answers of a resume, what it received —
 * every marker of the interrupt model highlighted — and, for a resume, what it changed in the
 * messages compared with the history its interrupt left (fetched: the interrupted call's view).
 */
export function ConversationSection(props: { conversation: ConversationView; interruptedViewUrl?: string }) {
  const [compare, setCompare] = useState(true);
  const interrupted = useSpanView(props.interruptedViewUrl, 'conversation');
  const before = interrupted.view?.conversation;
  const diff = useMemo(() => (before ? diffConversation({ before: [...before.sent, ...before.received], after: props.conversation.sent }) : undefined), [before, props.conversation.sent]);
  const shownDiff = compare ? diff : undefined;
  return (
    <section className="detail-block conversation" data-testid="conversation">
      <h3>Messages</h3>
      {diff ? (
        <label className="hint">
          <input type="checkbox" checked={compare} onChange={(event) => setCompare(event.target.checked)} data-testid="conversation-compare" /> compare with the history its interrupt left
          {diff.removed > 0 ? ` (${diff.removed} message(s) of it not sent again)` : ''}
        </label>
      ) : null}
      <h4>Sent ({props.conversation.sent.length})</h4>
      <ol className="messages" data-testid="conversation-sent">
        {props.conversation.sent.map((message, index) => (
          <Message key={index} message={message} status={shownDiff?.messages[index]?.status} parts={shownDiff?.messages[index]?.parts} />
        ))}
      </ol>
      {props.conversation.answers ? (
        <>
          <h4>Resume answers</h4>
          <ol className="messages" data-testid="conversation-answers">
            <Message message={props.conversation.answers} />
          </ol>
        </>
      ) : null}
      <h4>Received ({props.conversation.received.length})</h4>
      <ol className="messages" data-testid="conversation-received">
        {props.conversation.received.map((message, index) => (
          <Message key={index} message={message} />
        ))}
      </ol>
    </section>
  );
}
