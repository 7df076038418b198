import type { ResumePayload } from '../../../contract/resume-answers';
import { codeLiteral } from '../../../spans/code-literal';
import type { ResumeContext } from '../../../loop/resume-model';

/** A checked genkit resume as the app's own call: `ai.generate({ model, tools, messages, resume })`. Recorded values go through the one code encoder. */
export function genkitResumeSnippet(context: ResumeContext, payload: ResumePayload): string {
  return [
    'const response = await ai.generate({',
    `  model: ${codeLiteral(context.model ?? 'your/model', '  model: ')},`,
    `  tools: ${codeLiteral(context.tools.map((tool) => tool.name), '  tools: ')},`,
    `  messages: ${codeLiteral(payload.messages, '  messages: ')},`,
    `  resume: ${codeLiteral(payload.resume ?? {}, '  resume: ')},`,
    '});',
  ].join('\n');
}

/** genkit's two answers to an interrupt. */
export const GENKIT_ANSWER_KINDS = [
  { kind: 'respond' as const, label: 'Respond (the tool does not run again)', fields: ['output' as const] },
  { kind: 'restart' as const, label: 'Restart (the tool runs again)', fields: ['resumed' as const, 'replaceInput' as const] },
];
