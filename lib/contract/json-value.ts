import { z } from 'zod';

/**
 * A JSON value as it travels in a request or a script (inputs, outputs, metadata): what a
 * person wrote by hand, so it is checked to be plain JSON rather than taken as `unknown`.
 */
export const JsonValueSchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);
