'use client';

import type { RecordedValue, SpanView } from '@/lib/contract/span-view';
import { DIALECTS } from '@/lib/runtimes/index';
import { dialectTitle } from '@/lib/runtimes/index';

/** A recorded value as text: parsed JSON pretty-printed, else the raw text with why it is not JSON; never HTML. */
function ValueBlock(props: { title: string; value: RecordedValue | undefined; testId: string }) {
  if (props.value === undefined) return null;
  const text = props.value.parsed ? JSON.stringify(props.value.value, null, 2) : props.value.raw;
  return (
    <section className="detail-block">
      <h3>{props.title}</h3>
      {!props.value.parsed ? <p className="warning">Recorded value is not JSON ({props.value.reason}); shown as it is.</p> : null}
      <pre data-testid={props.testId}>{text}</pre>
    </section>
  );
}

/**
 * A label too long for the header (cut there as in the lists): its whole text, folded. A closed
 * `<details>` is not laid out, so a span with a 30 MiB name opens at once; unfolding lays it out.
 */
function WholeLabel(props: { whole: string; isName: boolean }) {
  return (
    <section className="detail-block" data-testid="detail-whole-label">
      <h3>{props.isName ? 'Name' : 'Label'}</h3>
      <details>
        <summary>
          The whole {props.isName ? 'span name' : 'label'}: {props.whole.length} characters (cut in the header and the lists)
        </summary>
        <pre data-testid="detail-whole-label-text">{props.whole}</pre>
      </details>
    </section>
  );
}

/** The selected span as the server read it: what went in, what came out, and everything else recorded on it. */
export function SpanDetail(props: { view?: SpanView; error?: string; embedded?: boolean }) {
  const { view } = props;
  const Container = props.embedded ? 'section' : 'aside';
  if (!view) {
    if (props.embedded && !props.error) return null;
    return (
      <Container className={props.embedded ? 'detail-embedded' : 'detail empty'}>
        {props.error ? <p className="error-text">{props.error}</p> : 'Select a span to see its input, output and metadata.'}
      </Container>
    );
  }
  return (
    <Container className={props.embedded ? 'detail-embedded' : 'detail'} data-testid="span-detail" aria-label="Span detail">
      <header>
        <h2>{view.label}</h2>
        <p className="detail-meta">
          <span className={`status-pill status-${view.outcome}`}>{view.outcome === 'interrupted' ? 'paused — waiting for an answer' : view.outcome}</span> {view.role} · started{' '}
          {new Date(view.startTime).toLocaleTimeString()}
          {view.durationMs !== undefined ? ` · ${view.durationMs.toFixed(1)} ms` : ' · still running'}
          {view.runtime ? (
            <>
              {' · '}
              <span data-testid="span-runtime" data-runtime={view.runtime}>
                {dialectTitle(view.runtime)}
              </span>
            </>
          ) : null}
        </p>
        <p className="detail-ids">
          trace <code>{view.traceId}</code> · span <code>{view.spanId}</code>
        </p>
      </header>
      {view.label !== (view.wholeLabel ?? view.name) ? <WholeLabel whole={view.wholeLabel ?? view.name} isName={view.wholeLabel === undefined} /> : null}
      {view.outcome === 'interrupted' && !props.embedded ? (
        <section className="detail-block interrupt-note" data-testid="interrupt-note">
          <h3>Interrupt</h3>
          <p>{DIALECTS.find((dialect) => dialect.id === view.runtime)?.explains.pause ?? 'The tool paused the loop to wait for an answer; it is not a failure.'}</p>
          <ValueBlock title="Interrupt metadata" value={view.interruptMetadata} testId="detail-interrupt" />
        </section>
      ) : null}
      {view.errorMessage ? (
        <section className="detail-block error-note">
          <h3>Error</h3>
          <pre data-testid="detail-error">{view.errorMessage}</pre>
        </section>
      ) : null}
      <ValueBlock title="Resumed metadata (restart)" value={view.resumedMetadata} testId="detail-resumed" />
      <ValueBlock title="Input" value={view.input} testId="detail-input" />
      <ValueBlock title="Output" value={view.output} testId="detail-output" />
      <section className="detail-block">
        <h3>Attributes</h3>
        <pre data-testid="detail-metadata">{JSON.stringify(view.attributes, null, 2)}</pre>
      </section>
      {view.events.length > 0 ? (
        <section className="detail-block">
          <h3>Events</h3>
          <pre>{JSON.stringify(view.events.map((event) => ({ name: event.name, ...event.attributes })), null, 2)}</pre>
        </section>
      ) : null}
    </Container>
  );
}
