import Ajv from 'ajv';

/**
 * The first way a value breaks a JSON schema (`/amount must be number`), or undefined when it
 * keeps it or there is no schema. Any runtime's resume rules check answers with it; it runs on
 * the server (ajv compiles code, which the page's CSP allows no eval for).
 */
export function schemaErrors(schema: unknown, value: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const validate = new Ajv({ allErrors: false, strict: false }).compile(rest);
  if (validate(value)) return undefined;
  const [first] = validate.errors ?? [];
  return first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}` : 'does not match the schema';
}
