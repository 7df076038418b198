'use client';

import { classifySpan } from '@/lib/dialects/classify-span';
import { parseJsonAttribute } from '@/lib/trace/parse-json-attribute';
import { nanosToMillis, spanDurationMillis, type AttributeValue, type Span } from '@/lib/trace/span';

/** Formats a recorded value as text: JSON strings are parsed and pretty-printed; never HTML. */
function JsonBlock(props: { title: string; value: AttributeValue | undefined; testId: string }) {
  if (props.value === undefined) return null;
  const parsed = parseJsonAttribute(props.value);
  const text = parsed.ok ? JSON.stringify(parsed.value, null, 2) : String(parsed.raw);
  return (
    <section className="detail-block">
      <h3>{props.title}</h3>
      {!parsed.ok ? <p className="warning">Recorded value is not JSON ({parsed.error}); shown as it is.</p> : null}
      <pre data-testid={props.testId}>{text}</pre>
    </section>
  );
}

const SHOWN_ELSEWHERE = new Set(['genkit:input', 'genkit:output', 'genkit:metadata:interrupt', 'genkit:metadata:resumed']);

/** The selected span: what went in, what came out, and everything else recorded on it. */
export function SpanDetail(props: { span?: Span; embedded?: boolean }) {
  const { span } = props;
  if (!span) return <aside className="detail empty">Select a span to see its input, output and metadata.</aside>;
  const classification = classifySpan(span);
  const metadata: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(span.attributes)) if (!SHOWN_ELSEWHERE.has(key)) metadata[key] = value;
  const duration = spanDurationMillis(span);
  const Container = props.embedded ? 'section' : 'aside';
  return (
    <Container className={props.embedded ? 'detail-embedded' : 'detail'} data-testid="span-detail" aria-label="Span detail">
      <header>
        <h2>{classification.label}</h2>
        <p className="detail-meta">
          <span className={`status-pill status-${classification.outcome}`}>
            {classification.outcome === 'interrupted' ? 'paused — waiting for an answer' : classification.outcome}
          </span>{' '}
          {classification.role} · started {new Date(nanosToMillis(span.startTimeUnixNano)).toLocaleTimeString()}
          {duration !== undefined ? ` · ${duration.toFixed(1)} ms` : ' · still running'}
        </p>
        <p className="detail-ids">
          trace <code>{span.traceId}</code> · span <code>{span.spanId}</code>
        </p>
      </header>
      {classification.outcome === 'interrupted' && !props.embedded ? (
        <section className="detail-block interrupt-note" data-testid="interrupt-note">
          <h3>Interrupt</h3>
          <p>
            The tool paused the loop and asked for an answer. genkit records this as an error, but it is a pause: the
            generate ended with <code>finishReason: &quot;interrupted&quot;</code> and waits to be resumed with a respond or
            restart part.
          </p>
          <JsonBlock title="Interrupt metadata" value={span.attributes['genkit:metadata:interrupt'] ?? 'true'} testId="detail-interrupt" />
        </section>
      ) : null}
      {classification.errorMessage ? (
        <section className="detail-block error-note">
          <h3>Error</h3>
          <pre data-testid="detail-error">{classification.errorMessage}</pre>
        </section>
      ) : null}
      <JsonBlock title="Resumed metadata (restart)" value={span.attributes['genkit:metadata:resumed']} testId="detail-resumed" />
      <JsonBlock title="Input" value={span.attributes['genkit:input']} testId="detail-input" />
      <JsonBlock title="Output" value={span.attributes['genkit:output']} testId="detail-output" />
      <section className="detail-block">
        <h3>Attributes</h3>
        <pre data-testid="detail-metadata">{JSON.stringify(metadata, null, 2)}</pre>
      </section>
      {span.events.length > 0 ? (
        <section className="detail-block">
          <h3>Events</h3>
          <pre>{JSON.stringify(span.events.map((event) => ({ name: event.name, ...event.attributes })), null, 2)}</pre>
        </section>
      ) : null}
    </Container>
  );
}
