import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarizeCapturedTrace } from '../../graph/trace-sessions';
import { CUT_MARK_PATTERN, NAME_MAX_CHARACTERS } from '../../spans/bounded-text';
import { TraceStore } from '../../store/trace-store';
import { EventBus } from '../live/event-bus';
import { IngestGate } from '../ingest/ingest-gate';
import { listTraces, queryTraces } from './list-traces';
import { receiveOtlpExport } from '../ingest/receive-otlp-export';
import { spanView } from './span-view';
import { traceSessionGraph } from './trace-session';

/**
 * Issue 36: one token-less local process made the home page unusable — four spans with 30 MiB
 * names made `GET /api/traces?limit=50` 128 MB. Spans are sent as an exporter sends them (the
 * OpenTelemetry SDK's own serializer, one export per span, each under the 32 MiB door) through
 * the receiver the server runs, and the list is measured as the route answers it (its JSON).
 */
const HUGE = 30 * 1024 * 1024;

let dataDir: string;
let store: TraceStore;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-bounded-'));
  store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** One ended span exported alone, as the OTLP JSON body an SDK exporter posts. */
function exportOf(options: { name: string; serviceName?: string; attributes?: Record<string, string>; error?: string }): { body: Uint8Array; traceId: string } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'hostile' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const span = provider.getTracer('hostile').startSpan(options.name, { attributes: options.attributes });
  if (options.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
  span.end();
  return { body: JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())!, traceId: span.spanContext().traceId };
}

async function ingest(body: Uint8Array): Promise<void> {
  const answer = await receiveOtlpExport({ store, bus: new EventBus(), ingestGate: new IngestGate() }, { body, contentType: 'application/json', contentEncoding: null });
  expect(answer.status).toBe(200);
}

describe('lists carry bounded names and titles; the whole value stays in the trace', () => {
  it('four spans with 30 MiB names (a flow name, a service name, an error message among them): GET /api/traces?limit=50 stays a few KB', async () => {
    const letters = (letter: string, length = HUGE) => letter.repeat(length);
    const exports = [
      exportOf({ name: letters('a') }),
      // A genkit flow: its title is the flow's name.
      exportOf({ name: 'planTrip', attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:name': letters('b'), 'genkit:path': '/{planTrip,t:flow}', 'genkit:state': 'success' } }),
      exportOf({ name: 'svc', serviceName: letters('c', 4 * 1024 * 1024) }),
      exportOf({ name: letters('d', 8 * 1024 * 1024), error: letters('e', 16 * 1024 * 1024) }),
    ];
    for (const { body } of exports) await ingest(body);

    const page = JSON.stringify(await queryTraces({ store }, { limit: 50 }));
    const whole = JSON.stringify({ traces: await listTraces({ store }) });
    // Measured before the bound: 163,578,654 characters for this page; after it 3,435.
    expect(page.length).toBeLessThan(8 * 1024);
    expect(whole.length).toBeLessThan(8 * 1024);

    const rows = new Map((await listTraces({ store })).map((row) => [row.traceId, row]));
    const [plain, flow, service, failed] = exports.map(({ traceId }) => rows.get(traceId)!);
    expect(plain.title).toBe(`${'a'.repeat(NAME_MAX_CHARACTERS)}… [${HUGE} characters in all]`);
    expect(plain.name).toBe(plain.title);
    expect(flow.title).toBe(`${'b'.repeat(NAME_MAX_CHARACTERS)}… [${HUGE} characters in all]`);
    expect(service.serviceName).toMatch(CUT_MARK_PATTERN);
    expect(service.serviceName?.length).toBeLessThan(NAME_MAX_CHARACTERS + 40);
    expect(failed).toMatchObject({ status: 'error', errorMessage: `${'e'.repeat(1_000)}… [${16 * 1024 * 1024} characters in all]` });

    // The search finds them by what the list shows.
    expect((await queryTraces({ store }, { q: 'aaaa' })).traces.map((row) => row.traceId)).toEqual([exports[0].traceId]);

    // The trace keeps the whole name, and so does the detail panel's view of the span.
    const [span] = (await store.get(exports[0].traceId))!;
    expect(span.name.length).toBe(HUGE);
    expect(spanView(span).name.length).toBe(HUGE);
    // The trace page's title is bounded like the list's.
    const session = await traceSessionGraph({ store }, exports[0].traceId);
    expect(session.trace.name).toBe(plain.title);
  });

  it('rows stored before the bound (an older index version) are summarized again, bounded; a row whose spans cannot be read is bounded as it is', async () => {
    const readable = exportOf({ name: 'short' });
    const unreadable = exportOf({ name: 'short too' });
    await ingest(readable.body);
    await ingest(unreadable.body);
    await store.close();
    // As the version-4 index kept them: whole names.
    const db = new Database(path.join(dataDir, 'loopscope.db'));
    const huge = 'x'.repeat(HUGE);
    db.prepare('UPDATE traces SET summary = json_set(summary, ?, ?, ?, ?)').run('$.name', huge, '$.title', huge);
    db.prepare("UPDATE trace_spans SET spans = 'not json' WHERE id = (SELECT id FROM traces WHERE trace_id = ?)").run(unreadable.traceId);
    db.prepare("UPDATE meta SET value = '4' WHERE key = 'summaryVersion'").run();
    db.close();

    const reopened = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved'), summarize: summarizeCapturedTrace });
    try {
      const page = JSON.stringify(await queryTraces({ store: reopened }, { limit: 50 }));
      expect(page.length).toBeLessThan(4 * 1024);
      const rows = new Map((await listTraces({ store: reopened })).map((row) => [row.traceId, row]));
      expect(rows.get(readable.traceId)?.title).toBe('short');
      expect(rows.get(unreadable.traceId)?.title).toBe(`${'x'.repeat(NAME_MAX_CHARACTERS)}… [${HUGE} characters in all]`);
      expect(reopened.warnings).toEqual([expect.stringContaining(`Could not summarize captured trace ${unreadable.traceId} again`)]);
    } finally {
      await reopened.close();
    }
  });

  it('saved files are listed with bounded names and descriptions', async () => {
    const { body } = exportOf({ name: 'n'.repeat(HUGE / 4) });
    const file = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    file.description = 'd'.repeat(HUGE / 4);
    await mkdir(path.join(dataDir, 'saved'), { recursive: true });
    await writeFile(path.join(dataDir, 'saved', 'hostile.json'), JSON.stringify(file));
    const [row] = await store.listSaved();
    expect(JSON.stringify(row).length).toBeLessThan(2 * 1024);
    expect(row.name).toBe(`${'n'.repeat(NAME_MAX_CHARACTERS)}… [${HUGE / 4} characters in all]`);
    expect(row.description).toBe(`${'d'.repeat(1_000)}… [${HUGE / 4} characters in all]`);
  });
});
