/**
 * A small valid-looking example value for a JSON schema (as genkit records tool schemas),
 * to pre-fill editors: required object properties filled in, enums take their first value,
 * defaults are used where the schema gives one. Unknown shapes give `null`.
 */
export function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const node = schema as Record<string, unknown>;
  if ('default' in node) return node.default;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) return exampleFromSchema(options[0], depth + 1);
  }
  const type = Array.isArray(node.type) ? node.type.find((candidate) => candidate !== 'null') : node.type;
  switch (type) {
    case 'object': {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(node.required) ? (node.required as string[]) : Object.keys(properties);
      const result: Record<string, unknown> = {};
      for (const name of required) if (name in properties) result[name] = exampleFromSchema(properties[name], depth + 1);
      return result;
    }
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof node.minimum === 'number' ? node.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
