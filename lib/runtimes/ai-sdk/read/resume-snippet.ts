import type { ResumePayload } from '../../../contract/resume-answers';
import { codeLiteral } from '../../../spans/code-literal';
import type { PendingRequest, ResumeContext } from '../../../loop/resume-model';

/**
 * A checked AI SDK answer as the app's own next call: `generateText({ …, messages })`, the
 * messages being the payload (history, then the answers' `tool` message). The model, tools and
 * approval settings are the app's own variables; what the trace recorded of them is a literal
 * (through the one code encoder), never a comment.
 */
export function aiSdkAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  return [
    "import { generateText } from 'ai';",
    '',
    '// The same settings as the paused call: its model, tools (with execute), toolApproval, stopWhen.',
    `const recorded = ${codeLiteral({ model: context.model ?? null, tools: context.tools.map((tool) => tool.name) }, 'const recorded = ')};`,
    'const result = await generateText({',
    '  model,',
    '  tools,',
    '  toolApproval,',
    '  stopWhen,',
    `  messages: ${codeLiteral(payload.messages, '  messages: ')},`,
    '});',
  ].join('\n');
}

/** The AI SDK's answers to a paused call: a `tool-approval-response` (approve / deny) or a `tool-result`. */
export const AI_SDK_ANSWER_KINDS = [
  { kind: 'approve' as const, label: 'Approve (tool-approval-response, approved: true — the tool runs)', fields: ['reason' as const] },
  { kind: 'deny' as const, label: 'Deny (approved: false — the model sees the reason)', fields: ['reason' as const] },
  { kind: 'respond' as const, label: 'Respond (tool-result — the caller’s result for a handed-back tool)', fields: ['output' as const] },
];

/** A call that waits for a result starts as respond; one that waits for an approval (or may) as approve. */
export function aiSdkDefaultKind(_request: PendingRequest, waitingFor?: 'approval' | 'result'): 'approve' | 'respond' {
  return waitingFor === 'result' ? 'respond' : 'approve';
}
