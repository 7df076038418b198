import type { GenkitBeta } from 'genkit/beta';

/**
 * What a module in `tools/` exports by default: a function that defines its tools on the
 * runner's one genkit instance. Define schemas with the `z` exported by `genkit` — a schema
 * from a separate zod 4 install silently becomes an empty JSON schema.
 */
export type ToolModule = (ai: GenkitBeta) => unknown;

/** Types a tool module's default export; returns it unchanged. */
export function defineTools(register: ToolModule): ToolModule {
  return register;
}
