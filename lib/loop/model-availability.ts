/**
 * A resume of a recording calls the recorded model (a resume continues the same conversation
 * with the same model). Loopscope's runner defines only the scripted models of the scenarios,
 * so a trace recorded by another app on a real model cannot be resumed here: this says so,
 * before anything runs, in the same words for the CLI and the API.
 */
export function unavailableModelMessage(model: string): string {
  return (
    `The interrupted generate called model "${model}", which is not defined here (Loopscope's runner defines only the scripted models ` +
    'of tools/scenarios/, scripted/<scenario>, and a resume needs the recorded model): replay the trace instead, which answers from ' +
    'the recorded model calls, or resume it in the app that recorded it.'
  );
}
