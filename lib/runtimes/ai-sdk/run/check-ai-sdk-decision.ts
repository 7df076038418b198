import { asSchema, type FlexibleSchema, type ToolSet } from 'ai';
import { z } from 'zod';
import type { PauseDecision, PauseInfo } from '../../../runner/step-protocol';

/** The problem a value has against a tool's schema (the SDK's own `asSchema(…).validate`), if any. */
async function schemaProblem(schema: FlexibleSchema<unknown> | undefined, value: unknown): Promise<string | undefined> {
  if (schema === undefined) return undefined;
  const validate = asSchema(schema).validate;
  if (!validate) return undefined;
  const result = await validate(value);
  if (result.success) return undefined;
  // A zod schema fails with its own issues (a ZodError, or wrapped as the SDK's TypeValidationError's cause).
  type Issues = { issues?: { path: PropertyKey[]; message: string }[] };
  const error = result.error as Issues & { cause?: Issues };
  const issue = (error.issues ?? error.cause?.issues)?.[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : result.error.message;
}

/** The shape of a provider prompt (`LanguageModelV4Prompt`) an edited request must keep: messages with a role and their content. */
const PromptSchema = z
  .array(
    z.looseObject({
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
    }),
  )
  .min(1);

/**
 * Checks a decision at an AI SDK pause before it is applied: hand-written tool calls and
 * edited inputs against the offered tools' input schemas, hand-written results against an
 * output schema, an edited request against the prompt's shape. Returns the problems; a
 * decision sent with `force` is applied anyway, to see the SDK's own reaction (an unknown tool
 * or a bad input becomes a tool-error the model sees).
 */
export async function checkAiSdkDecision({ tools, pause, decision }: { tools: ToolSet; pause: PauseInfo; decision: PauseDecision }): Promise<string[]> {
  const problems: string[] = [];
  const toolOf = (name: string) => (Object.hasOwn(tools, name) ? tools[name] : undefined);
  if (decision.action === 'replace-answer') {
    for (const part of decision.parts) {
      if (!('toolRequest' in part)) continue;
      const { name, ref, input } = part.toolRequest;
      const tool = toolOf(name);
      const problem = tool ? await schemaProblem(tool.inputSchema as FlexibleSchema<unknown>, input ?? {}) : `no tool named ${name} is offered to the model`;
      if (problem) problems.push(`${name}#${ref}: ${problem}`);
    }
  } else if (decision.action === 'edit-request') {
    const parsed = PromptSchema.safeParse(decision.request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`request: ${issue.path.join('.') || '(root)'}: ${issue.message} (a list of { role, content } messages, as the pause shows it)`);
    }
  } else if (decision.action === 'edit-input' || decision.action === 'answer') {
    const tool = pause.tool ? toolOf(pause.tool.name) : undefined;
    if (tool && decision.action === 'edit-input') {
      const problem = await schemaProblem(tool.inputSchema as FlexibleSchema<unknown>, decision.input);
      if (problem) problems.push(`input: ${problem}`);
    } else if (tool && decision.action === 'answer') {
      const problem = await schemaProblem((tool as { outputSchema?: FlexibleSchema<unknown> }).outputSchema, decision.output);
      if (problem) problems.push(`output: ${problem}`);
    }
  }
  return problems;
}
