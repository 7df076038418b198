/**
 * A resume of a genkit Go app's interrupt run IN the app, as genkit Go 1.12's `/util/generate`
 * takes it (measured on examples/apps/genkit-go, docs/attach-runtimes.md): the JS wire
 * (`resume: {respond, restart}` with `toolResponse` / `toolRequest` parts) except that a response
 * to a multipart tool — every interruptible tool (`DefineInterruptibleTool`, `tool.v2` with
 * `metadata.multipart: true`) — is checked against the multipart envelope `{output, content,
 * metadata}`: a bare output fails with code 3 `tool "bookHotel" output validation failed: …
 * Additional property city is not allowed`; wrapped as `{output: …}` it is taken, and the model
 * then sees `{output: …}` as the tool's output. A restart needs nothing of the kind.
 *
 * The Go dialect's check (resume-rules.ts) already holds a response against the output schema
 * the tool was recorded with — the envelope, when the model span recorded it — so a bare answer
 * is refused before anything runs and the person writes `{output: …}` (measured in
 * attached-go-app.capture.test.ts). This wraps what that check let through bare: a response to a
 * tool whose recorded definition says `multipart` but carries no envelope schema.
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import type { RecordedToolDefinition } from '../../../loop/resume-model';
import { isMultipartEnvelope } from './multipart-envelope';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The payload with each response to a multipart tool wrapped as `{output: …}` (unless the answer
 * is already that envelope). Never mutates the payload.
 * @param options.tools the tool definitions the paused call recorded (their `metadata.multipart`)
 */
export function goAppResumePayload(options: { payload: ResumePayload; tools: readonly RecordedToolDefinition[] }): ResumePayload {
  const { payload, tools } = options;
  if (!payload.resume) return payload;
  const multipart = new Set(tools.filter((tool) => tool.metadata?.multipart === true).map((tool) => tool.name));
  const respond = payload.resume.respond.map((part) => {
    if (!isRecord(part) || !isRecord(part.toolResponse)) return part;
    const response = part.toolResponse;
    if (typeof response.name !== 'string' || !multipart.has(response.name) || isMultipartEnvelope(response.output)) return part;
    return { ...part, toolResponse: { ...response, output: { output: response.output } } };
  });
  return { ...payload, resume: { ...payload.resume, respond } };
}
