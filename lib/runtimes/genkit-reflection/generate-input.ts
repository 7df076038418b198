/**
 * The input of genkit's `/util/generate` action (genkit JS `GenerateActionOptions`: `model`,
 * `messages`, `tools` by name, `resume: {respond?, restart?}`, `maxTurns`, …), which the
 * reflection API runs with the app's own registry: its model, its tools, its middleware. This is
 * how an answer to an app's interrupt runs in the app (the Dev UI runs generates the same way).
 */
import type { ResumePayload } from '../../contract/resume-answers';

export const GENERATE_ACTION_KEY = '/util/generate';

/** genkit refers to tools by registry name; a recorded key `/tool/x` and a name `x` both become `x`. */
const toolName = (tool: string) => tool.replace(/^\/tool(\.v2)?\//, '');

/**
 * The `/util/generate` input that resumes a paused call with checked answers.
 * The messages are copied: genkit 1.42's resume mutates them in place (docs/interrupt-model.md §7, bug 3).
 */
export function resumeGenerateInput(options: { model: string; tools: readonly string[]; payload: ResumePayload }): Record<string, unknown> {
  const { model, tools, payload } = options;
  return {
    model,
    messages: structuredClone(payload.messages),
    tools: tools.map(toolName),
    ...(payload.resume ? { resume: structuredClone(payload.resume) } : {}),
  };
}
