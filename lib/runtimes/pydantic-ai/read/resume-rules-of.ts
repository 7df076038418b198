/**
 * How a paused Pydantic AI run is answered, as the seam's resume rules: its kinds of answer
 * (approve, deny with a message, the caller's result, approve with new arguments), the context
 * rebuilt from the spans, the checks (resume-rules.ts) and the answer as the app's Python
 * (resume-snippet.ts). Loopscope does not run Pydantic AI apps: the checked answer is given as
 * code to paste into the app, where the agent and its tools are.
 */
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import type { ResumeRules } from '../../../loop/resume-model';
import { pydanticResumeContext } from './resume-context';
import { pydanticWaitingFor, validatePydanticResume } from './resume-rules';
import { partsLeftOut, pydanticAnswerSnippet } from './resume-snippet';
import type { GenAiMessage } from '../../otel-genai/read/genai-messages';

/** Pydantic AI's resume rules, reading contexts with its flavor. */
export function pydanticResumeRules(flavor: LoopFlavor): ResumeRules {
  return {
    answerKinds: [
      { kind: 'approve', label: 'Approve (approvals: True — the tool runs)', fields: [] },
      { kind: 'deny', label: 'Deny (ToolDenied — the model gets the message)', fields: ['reason'] },
      { kind: 'respond', label: 'Give the result (calls — the tool does not run)', fields: ['output'] },
      { kind: 'restart', label: 'Approve with new arguments (ToolApproved(override_args=…))', fields: ['replaceInput'] },
    ],
    defaultKind: (request) => (request.waitingFor === 'approval' ? 'approve' : 'respond'),
    waitingFor: (request) => pydanticWaitingFor(request),
    contextOf: (root, index) => pydanticResumeContext({ flavor, root, index }),
    validate: (check) => {
      const validation = validatePydanticResume(check);
      const leftOut = partsLeftOut(validation.payload.messages as GenAiMessage[]);
      return leftOut ? { ...validation, payload: { ...validation.payload, notes: [...(validation.payload.notes ?? []), leftOut] } } : validation;
    },
    snippet: pydanticAnswerSnippet,
    snippetLanguage: 'Python',
    elsewhere: { why: 'Loopscope does not run Pydantic AI apps: paste the answer into your app, where the agent and its tools are, and its trace is tied to this pause by the conversation id.' },
  };
}
