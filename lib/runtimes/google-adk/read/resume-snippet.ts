/**
 * A checked ADK answer as the app's own Python (google-adk 2.13, google-genai): one
 * `Runner.run_async` on the paused session whose message holds a `types.FunctionResponse` per
 * answered call. A confirmation is answered by ADK's `adk_request_confirmation` call, whose id no
 * span records: the code finds it in the session's events by the paused call's id. The code is
 * one async function the app calls with its runner and session service; recorded values (ids,
 * names, answers) enter it only as Python literals (lib/runtimes/python-values/python-literal.ts),
 * never in a comment.
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import { isObject } from '../../../spans/json-value';
import { pythonLiteral, pythonString } from '../../python-values/python-literal';
import type { ResumeContext } from '../../../loop/resume-model';
import { CONFIRMATION_FUNCTION } from './adk-words';

/** One FunctionResponse of the answer: to a tool call (`id`), or to the confirmation ADK asked for the call `confirms`. */
export interface AdkFunctionResponse {
  id?: string;
  confirms?: string;
  name: string;
  response: unknown;
}

function responsesOf(payload: ResumePayload): AdkFunctionResponse[] {
  const answer = payload.answer;
  if (!isObject(answer) || !Array.isArray(answer.functionResponses)) return [];
  return answer.functionResponses.filter((response): response is AdkFunctionResponse => isObject(response) && typeof response.name === 'string');
}

/** The answer as a Python async function for the app to call (`await answer_pause(runner, session_service, app_name=…, user_id=…)`). */
export function adkAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  const responses = responsesOf(payload);
  const confirms = responses.some((response) => response.confirms !== undefined);
  const part = (response: AdkFunctionResponse) => {
    const id = response.confirms !== undefined ? `confirmation_id(session, ${pythonString(response.confirms)})` : pythonString(response.id ?? '');
    const head = '                response=';
    return [
      '        types.Part(',
      '            function_response=types.FunctionResponse(',
      `                id=${id},`,
      `                name=${pythonString(response.name)},`,
      `${head}${pythonLiteral(response.response, head)},`,
      '            )',
      '        ),',
    ].join('\n');
  };
  const lines = [
    'from google.genai import types',
    '',
    '',
    ...(confirms
      ? [
          'def confirmation_id(session, call_id):',
          `    """The id of the ${CONFIRMATION_FUNCTION} call ADK sent for a paused tool call (in the session's events; no span records it)."""`,
          '    for event in reversed(session.events):',
          '        for call in event.get_function_calls():',
          `            if call.name == ${pythonString(CONFIRMATION_FUNCTION)} and call.args["originalFunctionCall"]["id"] == call_id:`,
          '                return call.id',
          '    raise LookupError(f"no confirmation was asked for the call {call_id}")',
          '',
          '',
        ]
      : []),
    `async def answer_pause(runner, session_service, *, app_name, user_id, session_id=${pythonString(context.conversationId ?? '')}):`,
    '    """Continues the paused run: one FunctionResponse per answered call, on the same session."""',
    '    session = await session_service.get_session(app_name=app_name, user_id=user_id, session_id=session_id)',
    '    message = types.Content(role="user", parts=[',
    ...responses.map(part),
    '    ])',
    '    return [event async for event in runner.run_async(user_id=user_id, session_id=session.id, new_message=message)]',
  ];
  return `${lines.join('\n')}\n`;
}
