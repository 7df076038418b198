/**
 * Sends over a channel in node's 'advanced' serialization (the V8 serializer; the server spawns
 * the runner so, lib/server/runners/runner-process.ts): a span batch's long attribute strings are
 * copied, not escaped into JSON and parsed back. A value V8 cannot clone (a function a tool
 * left in its output) goes as JSON would have sent it, without the function.
 */
export function sendCloneable<T>(send: (message: T) => void, message: T): void {
  try {
    send(message);
  } catch (error) {
    // V8 says "… could not be cloned." (an Error, not a DataCloneError).
    if (!(error instanceof Error && error.message.endsWith('could not be cloned.'))) throw error;
    send(JSON.parse(JSON.stringify(message)) as T);
  }
}
