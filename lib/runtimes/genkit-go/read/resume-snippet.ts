/**
 * A checked genkit Go resume as the app's own Go code (genkit Go 1.12): the answers built with
 * genkit's `tool.Respond` / `tool.Resume` (the tool's `Restart` for a new input), then
 * `genkit.Generate` with the recorded history, `ai.WithToolResponses` / `ai.WithToolRestarts` and
 * the ToolApproval middleware again when the call used it. Recorded values become Go literals
 * (`map[string]any{…}`, `[]any{…}`, strings escaped as JSON strings are — valid Go interpreted
 * string literals); none goes into a comment.
 */import type { ResumePayload } from '../../../contract/resume-answers';
import type { ResumeContext } from '../../../loop/resume-model';
import { TOOL_APPROVAL } from './tool-approval';

const UNSAFE = /[\u2028\u2029\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu;
const escape = (character: string) => Array.from(character, (unit) => `\\u${unit.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('');

/** A Go string literal for any string: JSON's escapes are Go's; the characters an editor could hide are escaped too. */
function goString(text: string): string {
  return JSON.stringify(text).replace(UNSAFE, escape);
}

/** A JSON value as a Go literal of type `any`. */
export function goLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'nil';
  if (typeof value === 'boolean') return String(value);
  const inner = `${indent}\t`;
  if (Array.isArray(value)) return value.length === 0 ? '[]any{}' : `[]any{\n${value.map((item) => `${inner}${goLiteral(item, inner)},`).join('\n')}\n${indent}}`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return entries.length === 0 ? 'map[string]any{}' : `map[string]any{\n${entries.map(([key, item]) => `${inner}${goString(key)}: ${goLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/** A Go identifier for a tool variable (`transferMoney`), whatever its recorded name. */
function goName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `tool_${cleaned}`;
}

export function goResumeSnippet(context: ResumeContext, payload: ResumePayload): string {
  const resume = (payload.resume ?? { respond: [], restart: [] }) as { respond: { toolResponse: { name: string; ref?: string; output?: unknown } }[]; restart: { toolRequest: { name: string; ref?: string; input?: unknown }; metadata: { resumed?: unknown; replacedInput?: unknown } }[] };
  const partOf = (name: string, ref?: string) => `interrupted(resp, ${goString(name)}, ${goString(ref ?? '')})`;
  const built: string[] = [];
  const responses: string[] = [];
  const restarts: string[] = [];
  resume.respond.forEach((part, position) => {
    const variable = `response${position + 1}`;
    built.push(`${variable}, err := tool.Respond(${partOf(part.toolResponse.name, part.toolResponse.ref)}, ${goLiteral(part.toolResponse.output)})`, 'if err != nil {', '\treturn err', '}');
    responses.push(`\t\t${variable},`);
  });
  resume.restart.forEach((part, position) => {
    const variable = `restart${position + 1}`;
    const { resumed, replacedInput } = part.metadata;
    const data = resumed !== undefined && resumed !== true;
    if (replacedInput === undefined && data) {
      built.push(`${variable}, err := tool.Resume(${partOf(part.toolRequest.name, part.toolRequest.ref)}, ${goLiteral(resumed)})`, 'if err != nil {', '\treturn err', '}');
    } else {
      const options = [...(data ? [`ResumedMetadata: ${goLiteral(resumed)}`] : []), ...(replacedInput !== undefined ? [`ReplaceInput: ${goLiteral(part.toolRequest.input)}`] : [])];
      built.push(`${variable} := ${goName(part.toolRequest.name)}.Restart(${partOf(part.toolRequest.name, part.toolRequest.ref)}, &ai.RestartOptions{${options.join(', ')}})`);
    }
    restarts.push(`\t\t${variable},`);
  });
  const approvals = (context.use ?? []).filter((ref) => ref.name === TOOL_APPROVAL.name);
  const uses = approvals.map((ref) => {
    const allowed = ((ref.config as { allowedTools?: unknown[] } | undefined)?.allowedTools ?? []).filter((name): name is string => typeof name === 'string');
    return `\tai.WithUse(&middleware.ToolApproval{AllowedTools: []string{${allowed.map(goString).join(', ')}}}),`;
  });
  return [
    '// resp: the *ai.ModelResponse that ended "interrupted"; interrupted(resp, name, ref) finds its part in resp.Interrupts().',
    '// tool is github.com/firebase/genkit/go/ai/exp/tool; middleware is github.com/firebase/genkit/go/plugins/middleware.',
    ...built,
    'resumed, err := genkit.Generate(ctx, g,',
    `\tai.WithModelName(${goString(context.model ?? 'your/model')}),`,
    `\tai.WithTools(${context.tools.map((tool) => goName(tool.name)).join(', ')}),`,
    ...uses,
    '\tai.WithMessages(resp.History()...),',
    ...(responses.length > 0 ? ['\tai.WithToolResponses(', ...responses, '\t),'] : []),
    ...(restarts.length > 0 ? ['\tai.WithToolRestarts(', ...restarts, '\t),'] : []),
    ')',
  ].join('\n');
}
