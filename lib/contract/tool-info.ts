import { z } from 'zod';

/** A tool registered in the runner, as the page and the validator see it. */
export const ToolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.unknown().optional(),
  outputSchema: z.unknown().optional(),
  /** `false` for `defineInterrupt` tools: meant to be answered by respond. */
  restartable: z.boolean().optional(),
  /** AI SDK: `true` for a tool without `execute` — its calls are handed back to the caller. */
  handedBack: z.boolean().optional(),
  /** The file in `tools/` that defined it. */
  file: z.string(),
  /** genkit Go: a typed interruptible tool's resume type (the Go type a restart's data becomes) and its JSON schema. */
  resumeType: z.string().optional(),
  resumeSchema: z.unknown().optional(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

/**
 * A tool as `GET /api/scenarios` lists it: with example values built from its schemas on
 * the server, which the step panel pre-fills its editors with.
 */
export const ListedToolSchema = ToolInfoSchema.extend({
  inputExample: z.unknown().optional(),
  outputExample: z.unknown().optional(),
});
export type ListedTool = z.infer<typeof ListedToolSchema>;
