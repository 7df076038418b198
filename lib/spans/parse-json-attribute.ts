import { tryParseJsonLimited } from './parse-json-limited';
import type { AttributeValue } from './span';

export type ParsedAttribute =
  | { ok: true; value: unknown }
  | { ok: false; raw: AttributeValue | undefined; error: string };

/**
 * Genkit records `genkit:input`, `genkit:output` and `genkit:metadata:*` as JSON strings.
 * Real traces carry truncated or hand-edited values, so this reports instead of throwing —
 * also for JSON nested past the limit (`nested N levels deep; the limit is M`), which the
 * graph, the detail panel and the CLI would otherwise walk until the stack overflows.
 * A non-string attribute is returned as it is (another exporter may have stored it decoded;
 * the OTLP decoders already bounded its depth).
 */
export function parseJsonAttribute(value: AttributeValue | undefined): ParsedAttribute {
  if (value === undefined) return { ok: false, raw: undefined, error: 'attribute is absent' };
  if (typeof value !== 'string') return { ok: true, value };
  const parsed = tryParseJsonLimited(value);
  return parsed.ok ? parsed : { ok: false, raw: value, error: parsed.problem };
}

/** The parsed value, or undefined when the attribute is absent or not JSON. */
export function jsonAttributeOrUndefined(value: AttributeValue | undefined): unknown {
  const parsed = parseJsonAttribute(value);
  return parsed.ok ? parsed.value : undefined;
}
