import type { AttributeValue } from './span';

export type ParsedAttribute =
  | { ok: true; value: unknown }
  | { ok: false; raw: AttributeValue | undefined; error: string };

/**
 * Genkit records `genkit:input`, `genkit:output` and `genkit:metadata:*` as JSON strings.
 * Real traces carry truncated or hand-edited values, so this reports instead of throwing.
 * A non-string attribute is returned as it is (another exporter may have stored it decoded).
 */
export function parseJsonAttribute(value: AttributeValue | undefined): ParsedAttribute {
  if (value === undefined) return { ok: false, raw: undefined, error: 'attribute is absent' };
  if (typeof value !== 'string') return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) as unknown };
  } catch (error) {
    return { ok: false, raw: value, error: `not valid JSON: ${(error as Error).message}` };
  }
}

/** The parsed value, or undefined when the attribute is absent or not JSON. */
export function jsonAttributeOrUndefined(value: AttributeValue | undefined): unknown {
  const parsed = parseJsonAttribute(value);
  return parsed.ok ? parsed.value : undefined;
}
