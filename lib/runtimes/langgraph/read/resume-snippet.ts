/**
 * A checked LangGraph answer as the app's own Python (langgraph 1.2): `graph.invoke` of the app's
 * compiled graph (with the checkpointer the paused run used) on the paused thread, with
 * `Command(resume={interrupt id: value, …})`. Recorded values (the thread id, the interrupt ids,
 * the values) enter the code only as Python literals (lib/runtimes/python-values/), never in a
 * comment.
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { pythonLiteral, pythonString } from '../../python-values/python-literal';
import type { ResumeContext } from '../../../loop/resume-model';

export function langGraphAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  const answer = isObject(payload.answer) ? payload.answer : {};
  const resume = isObject(answer.resume) ? answer.resume : {};
  const head = '    Command(resume=';
  return [
    'from langgraph.types import Command',
    '',
    '# `graph` is your compiled graph, with the checkpointer the paused run used.',
    `config = {"configurable": {"thread_id": ${pythonString(context.conversationId ?? '')}}}`,
    'result = graph.invoke(',
    `${head}${pythonLiteral(resume, head)}),`,
    '    config,',
    ')',
    '',
  ].join('\n');
}
