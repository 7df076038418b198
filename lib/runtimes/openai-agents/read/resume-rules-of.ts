/**
 * How a paused OpenAI Agents run is answered, as the seam's resume rules: approve or reject each
 * pending call (its kinds of answer), the context rebuilt from the spans, the checks
 * (resume-rules.ts) and the answer as the app's Python (resume-snippet.ts). Loopscope does not
 * run the app: the checked answer is given as code to paste where the run's state is.
 */
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import type { ResumeRules } from '../../../loop/resume-model';
import { agentsWaitingFor, validateAgentsResume } from './resume-rules';
import { agentsAnswerSnippet } from './resume-snippet';

/** The OpenAI Agents SDK's resume rules, reading contexts with its flavor. */
export function agentsResumeRules(flavor: LoopFlavor): ResumeRules {
  return {
    answerKinds: [
      { kind: 'approve', label: 'Approve (state.approve — the tool runs)', fields: [] },
      { kind: 'deny', label: 'Reject (state.reject — the model gets the message)', fields: ['reason'] },
    ],
    defaultKind: () => 'approve',
    waitingFor: (request) => agentsWaitingFor(request),
    contextOf: (root, index) =>
      loopResumeContext({
        flavor,
        root,
        index,
        factsOf: (tool) => (tool.status === 'interrupted' ? { waitingFor: 'approval', waitingEvidence: 'the SDK stopped it for an approval (needs_approval): its tool span has no result' } : {}),
      }),
    validate: validateAgentsResume,
    snippet: agentsAnswerSnippet,
    snippetLanguage: 'Python',
    elsewhere: { why: 'Loopscope does not run OpenAI Agents apps: paste the answer into your app, where the paused run\'s state, the agent and its tools are.' },
  };
}
