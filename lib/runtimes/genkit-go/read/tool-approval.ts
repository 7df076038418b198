/**
 * genkit Go's ToolApproval middleware (plugins/middleware/tool_approval.go, v1.12.0), once: a
 * WrapTool hook on the generate (`ai.WithUse(&middleware.ToolApproval{AllowedTools})`) that holds
 * every call of a tool not in `allowedTools` with its own interrupt, `{message: "Tool not in
 * approved list: <name>"}`, until a restart's resume data has `toolApproved: true`. genkit Go
 * records no `interruptedBy`: the hold's span is a tool-shaped span the engine makes for the
 * tool that never ran, indistinguishable from the tool's own interrupt. The evidence is the
 * generate's recorded input (`use` names the middleware and its config) and the hook's message.
 */
import { isObject } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import type { ParsedInput } from '../../genkit-js/read/read-generate';
import type { Span } from '../../../spans/span';

export const TOOL_APPROVAL = {
  /** The middleware's registered name (provider "genkit-middleware"). */
  name: 'genkit-middleware/toolApproval',
  /** Its name for people. */
  title: 'the ToolApproval middleware',
  /** The resume-data key it lets through. */
  approvedKey: 'toolApproved',
  message: (tool: string) => `Tool not in approved list: ${tool}`,
} as const;

/** A tool call held by a hook that wraps the tool (not the tool's own interrupt), and how that is known. */
export interface HookHold {
  /** The hook, for people. */
  by: string;
  evidence: string;
  /** The restart resume data that gets past the hook. */
  release: Record<string, unknown>;
}

/** The ToolApproval configs a generate's recorded input names (`use`); none when it used no ToolApproval. `parsedInput`: the input, when the caller parsed it already. */
export function toolApprovalsOf(root: Span, parsedInput?: ParsedInput): { allowedTools: string[] }[] {
  const raw = root.attributes['genkit:input'];
  if (typeof raw === 'string' && !raw.includes(TOOL_APPROVAL.name)) return [];
  const input = parsedInput ? parsedInput.value : jsonAttributeOrUndefined(raw);
  const use = isObject(input) && Array.isArray(input.use) ? input.use.filter(isObject) : [];
  return use
    .filter((ref) => ref.name === TOOL_APPROVAL.name)
    .map((ref) => {
      const allowed = isObject(ref.config) && Array.isArray(ref.config.allowedTools) ? ref.config.allowedTools : [];
      return { allowedTools: allowed.filter((name): name is string => typeof name === 'string') };
    });
}

/** The hold of an interrupted call of `tool`, when ToolApproval raised it: the generate used it, the tool is not allowed, the interrupt is its message. */
export function holdOf(options: { approvals: { allowedTools: string[] }[]; tool: string; interruptMetadata: unknown }): HookHold | undefined {
  const { approvals, tool, interruptMetadata } = options;
  const holding = approvals.find((approval) => !approval.allowedTools.includes(tool));
  if (!holding || !isObject(interruptMetadata) || interruptMetadata.message !== TOOL_APPROVAL.message(tool)) return undefined;
  const allowed = holding.allowedTools.length > 0 ? `allows only ${holding.allowedTools.join(', ')}` : 'allows no tool';
  return {
    by: 'ToolApproval',
    evidence: `held by ${TOOL_APPROVAL.title} (${TOOL_APPROVAL.name}, which this generate uses and which ${allowed}), not by ${tool} itself: ${tool} never ran. Its interrupt is the hook's message; a restart whose resume data has ${TOOL_APPROVAL.approvedKey}: true gets past the hook and runs ${tool}.`,
    release: { [TOOL_APPROVAL.approvedKey]: true },
  };
}
