/**
 * Hostile JSON for tests: values nested thousands of levels deep, built as text — a value
 * that deep cannot even be written with `JSON.stringify` (it overflows the stack first).
 */

/** `[[[…]]]`: `levels` arrays. */
export function deepArrayText(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** `{"a":{"a":…null…}}`: `levels` objects. */
export function deepObjectText(levels: number): string {
  return `${'{"a":'.repeat(levels)}null${'}'.repeat(levels)}`;
}

/** An OTLP AnyValue of `levels` kvlistValues inside each other (4 JSON levels each) around a string. */
export function deepKvlistValueText(levels: number): string {
  return `${'{"kvlistValue":{"values":[{"key":"k","value":'.repeat(levels)}{"stringValue":"leaf"}${'}]}}'.repeat(levels)}`;
}

/** An OTLP AnyValue of `levels` arrayValues inside each other (3 JSON levels each) around a string. */
export function deepArrayValueText(levels: number): string {
  return `${'{"arrayValue":{"values":['.repeat(levels)}{"stringValue":"leaf"}${']}}'.repeat(levels)}`;
}

/**
 * JSON depth of an attribute's AnyValue object inside `otlpBodyText`: resourceSpans,
 * scopeSpans and spans (array + object each) under the root, then attributes and KeyValue.
 */
export const OTLP_ATTRIBUTE_VALUE_DEPTH = 10;

/**
 * One canonical OTLP JSON export of one span, as text, with one attribute `deep` whose AnyValue
 * is `valueText` (raw JSON text). `span` patches the span's other fields.
 */
export function otlpBodyText(options: { valueText?: string; span?: Record<string, unknown> } = {}): string {
  const span = { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'hostile', kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000001000000', ...options.span };
  const fields = JSON.stringify(span).slice(1, -1);
  return `{"resourceSpans":[{"scopeSpans":[{"scope":{"name":"test"},"spans":[{${fields},"attributes":[{"key":"deep","value":${options.valueText ?? '{"stringValue":"x"}'}}]}]}]}]}`;
}
