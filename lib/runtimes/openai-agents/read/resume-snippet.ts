/**
 * A checked answer to a paused OpenAI Agents run as the app's own Python, ready to paste: the
 * paused run's state (`result.to_state()`, or `RunState.from_string(agent, saved)` for a state the
 * app saved), each pending call approved or rejected on it by its call id, then
 * `Runner.run(agent, state)`. Recorded values enter the code only as Python literals.
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import { pythonString } from '../../python-values/python-literal';
import type { ResumeContext } from '../../../loop/resume-model';
import type { AgentsStateAnswer } from './resume-rules';

/** The checked answer as the app's Python. */
export function agentsAnswerSnippet(_context: ResumeContext, payload: ResumePayload): string {
  const answers = (payload.answer ?? []) as AgentsStateAnswer[];
  // One `if` per answer, in order: a call answered twice is approved, then rejected (the SDK keeps the last).
  const branches = answers.map((answer) => {
    const call = answer.action === 'approve' ? 'state.approve(item)' : answer.rejectionMessage !== undefined ? `state.reject(item, rejection_message=${pythonString(answer.rejectionMessage)})` : 'state.reject(item)';
    return [`    if item.raw_item.call_id == ${pythonString(answer.callId)}:`, `        ${call}`];
  });
  return [
    'from agents import Runner',
    '',
    '# `result` is the paused run\'s RunResult and `agent` the app\'s Agent (for a state saved with',
    '# state.to_string(), use: state = RunState.from_string(agent, saved)).',
    'state = result.to_state()',
    'for item in state.get_interruptions():',
    ...(branches.length > 0 ? branches.flat() : ['    pass  # no answer: the run pauses again on every pending call']),
    'result = await Runner.run(agent, state)',
    'print(result.final_output)',
    '',
  ].join('\n');
}
