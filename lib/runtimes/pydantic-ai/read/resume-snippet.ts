/**
 * A checked answer to a paused Pydantic AI run as the app's own Python, ready to paste: the
 * paused run's message history rebuilt as Pydantic AI's messages (`ModelRequest` /
 * `ModelResponse` with `UserPromptPart`, `TextPart`, `ToolCallPart`, `ToolReturnPart` — what
 * `result.all_messages()` held), the answer as `DeferredToolResults(approvals={…}, calls={…})`,
 * and the run that continues it with the paused run's `conversation_id` (so its trace is tied to
 * the pause). Recorded values enter the code only as Python literals (python-literal.ts).
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import type { GenAiMessage, GenAiPart } from '../../otel-genai/read/genai-messages';
import { pythonLiteral, pythonString } from '../../python-values/python-literal';
import type { ResumeContext } from '../../../loop/resume-model';
import type { PydanticApproval, PydanticDeferredResults } from './resume-rules';

const INDENT = '        ';

/** One part as Pydantic AI's part class, or undefined for a part it has no class for here. */
function partCode(part: GenAiPart, role: string): string | undefined {
  const literal = (value: unknown) => pythonLiteral(value, INDENT);
  if (part.type === 'text') return role === 'assistant' ? `TextPart(content=${literal(part.content ?? '')})` : role === 'system' ? `SystemPromptPart(content=${literal(part.content ?? '')})` : `UserPromptPart(content=${literal(part.content ?? '')})`;
  if (part.type === 'tool_call') return `ToolCallPart(tool_name=${literal(part.name ?? '')}, args=${literal(part.arguments ?? {})}, tool_call_id=${literal(part.id ?? '')})`;
  if (part.type === 'tool_call_response') return `ToolReturnPart(tool_name=${literal(part.name ?? '')}, content=${literal(part.response ?? null)}, tool_call_id=${literal(part.id ?? '')})`;
  return undefined;
}

function messageCode(message: GenAiMessage): string | undefined {
  const parts = message.parts.flatMap((part) => partCode(part, message.role) ?? []);
  if (parts.length === 0) return undefined;
  return `    ${message.role === 'assistant' ? 'ModelResponse' : 'ModelRequest'}(parts=[\n${parts.map((part) => `${INDENT}${part},`).join('\n')}\n    ]),`;
}

function approvalCode(approval: PydanticApproval): string {
  if (approval === true) return 'True';
  if (approval.kind === 'ToolDenied') return approval.message !== undefined ? `ToolDenied(${pythonString(approval.message)})` : 'ToolDenied()';
  return approval.overrideArgs === undefined ? 'ToolApproved()' : `ToolApproved(override_args=${pythonLiteral(approval.overrideArgs, INDENT)})`;
}

function dictCode(entries: [string, string][]): string {
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([id, value]) => `${INDENT}${pythonString(id)}: ${value},`).join('\n')}\n    }`;
}

/** The parts of the history the snippet leaves out (a part type Pydantic AI's messages are not rebuilt from), in words, for the payload's notes. */
export function partsLeftOut(messages: readonly GenAiMessage[]): string | undefined {
  const types = [...new Set(messages.flatMap((message) => message.parts.filter((part) => partCode(part, message.role) === undefined).map((part) => part.type)))];
  return types.length > 0 ? `The history's parts of type ${types.join(', ')} are left out of the rebuilt message_history; pass the paused run's result.all_messages() to keep them.` : undefined;
}

/** The checked answer as the app's Python: the history, `DeferredToolResults`, and the run that continues the conversation. */
export function pydanticAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  const results = (payload.answer ?? { approvals: {}, calls: {} }) as PydanticDeferredResults;
  const messages = (payload.messages as GenAiMessage[]).flatMap((message) => messageCode(message) ?? []);
  const approvals = Object.entries(results.approvals).map(([id, approval]): [string, string] => [id, approvalCode(approval)]);
  const calls = Object.entries(results.calls).map(([id, value]): [string, string] => [id, pythonLiteral(value, INDENT)]);
  return [
    'from pydantic_ai import DeferredToolResults, ToolApproved, ToolDenied',
    'from pydantic_ai.messages import ModelRequest, ModelResponse, SystemPromptPart, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart',
    '',
    '# The paused run\'s messages, as result.all_messages() returned them (pass those instead, if the app kept them).',
    'message_history = [',
    ...messages,
    ']',
    'deferred_tool_results = DeferredToolResults(',
    `    approvals=${dictCode(approvals)},`,
    `    calls=${dictCode(calls)},`,
    ')',
    '# `agent` is the app\'s Agent, with its tools (or: await agent.run(…) in async code).',
    'result = agent.run_sync(',
    '    message_history=message_history,',
    '    deferred_tool_results=deferred_tool_results,',
    ...(context.conversationId !== undefined ? [`    conversation_id=${pythonString(context.conversationId)},`] : []),
    ')',
    'print(result.output)',
    '',
  ].join('\n');
}
