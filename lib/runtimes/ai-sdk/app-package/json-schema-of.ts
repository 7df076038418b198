import { asSchema, type FlexibleSchema } from 'ai';

/**
 * A tool's schema (zod, Standard Schema, `jsonSchema(...)`) as the JSON Schema the SDK itself
 * sends the model — what the step panel edits inputs with and the answer rules check outputs
 * against — or undefined when the tool has none or it cannot be converted.
 */
export async function jsonSchemaOf(schema: unknown): Promise<unknown> {
  if (schema === undefined || schema === null) return undefined;
  try {
    return JSON.parse(JSON.stringify(await asSchema(schema as FlexibleSchema<unknown>).jsonSchema)) as unknown;
  } catch {
    return undefined;
  }
}
