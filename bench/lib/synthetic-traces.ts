/**
 * Synthetic captured traces for the store and list benchmarks: small generate calls and flows
 * (genkit attributes, so a runtime claims them) from four services, every 17th failed, and
 * plain HTTP root spans; the same trace for the same index.
 */
import type { Span } from '../../lib/spans/span';
import { buildSpan } from '../../lib/spans/testing/build-span';

const SERVICES = ['checkout', 'support-bot', 'loopscope-runner', 'research-agent'];

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

/** A small trace of a generate call (genkit attributes, so a runtime claims it) or a plain HTTP root span. */
export function traceSpans(index: number, now: number): Span[] {
  const traceId = `be${hex(index + 1, 30)}`;
  const start = BigInt(now - index * 60_000) * 1_000_000n;
  const end = start + 2_000_000_000n;
  const resource = { 'service.name': SERVICES[index % SERVICES.length] };
  const failed = index % 17 === 0;
  if (index % 3 === 2) {
    return [buildSpan({ traceId, spanId: `1${hex(index, 15)}`, name: `GET /orders/${index}`, startTimeUnixNano: String(start), endTimeUnixNano: String(end), resource, attributes: { 'http.method': 'GET' } })];
  }
  const root = buildSpan({
    traceId,
    spanId: `1${hex(index, 15)}`,
    name: index % 3 === 0 ? `orderFlow${index % 11}` : 'generate',
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(end),
    resource,
    attributes: index % 3 === 0 ? { 'genkit:type': 'action', 'genkit:metadata:subtype': 'flow', 'genkit:name': `orderFlow${index % 11}`, 'genkit:state': failed ? 'error' : 'success' } : { 'genkit:type': 'util', 'genkit:name': 'generate', 'genkit:state': failed ? 'error' : 'success' },
    ...(failed ? { status: { code: 2, message: 'tool failed' } } : {}),
  });
  const model = buildSpan({
    traceId,
    spanId: `2${hex(index, 15)}`,
    parentSpanId: root.spanId,
    name: `scripted/scenario-${index % 7}`,
    startTimeUnixNano: String(start + 1_000_000n),
    endTimeUnixNano: String(end - 1_000_000n),
    resource,
    attributes: { 'genkit:type': 'action', 'genkit:metadata:subtype': 'model', 'genkit:name': `scripted/scenario-${index % 7}`, 'genkit:state': 'success' },
  });
  return [root, model];
}

