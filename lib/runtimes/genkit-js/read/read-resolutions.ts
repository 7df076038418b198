import { isObject } from '../../../spans/json-value';
import type { Resolution, ToolCall } from '../../../loop/loop-model';
import { inputMessages, requestLabel, toolRequestParts } from './message-parts';
import { answeredRequest, resolveRequest, type ResumeInput } from './resume-parts';

/**
 * How a resume generate answered each request of the interrupted model message its history
 * ends with, by genkit's rule (resume-parts.ts `resolveRequest`), with the restarted tool
 * executions (`resumeToolCalls`, run before the first model turn) tied to their restarts.
 */
export function readResolutions(options: {
  generateId: string;
  input: Record<string, unknown>;
  resume: ResumeInput;
  errorMessage?: string;
  resumeToolCalls: ToolCall[];
}): Resolution[] {
  const messages = inputMessages(options.input);
  const last = messages[messages.length - 1];
  const requests = last?.role === 'model' ? toolRequestParts(last) : [];
  const unusedRestarts = [...options.resumeToolCalls];

  return requests.map(({ request, metadata }) => {
    const label = requestLabel(request);
    const id = `${options.generateId}:resume:${label}`;
    const resolution = resolveRequest({
      request,
      pending: metadata.pendingOutput !== undefined,
      respond: options.resume.respond,
      restart: options.resume.restart,
      nameOf: answeredRequest,
    });
    if (resolution.kind === 'respond') {
      return { id, kind: 'respond' as const, request, output: (resolution.answer.toolResponse as { output?: unknown }).output };
    }
    if (resolution.kind === 'restart') {
      const restartMetadata = isObject(resolution.answer.metadata) ? resolution.answer.metadata : {};
      const newInput = (resolution.answer.toolRequest as { input?: unknown }).input;
      const position = unusedRestarts.findIndex((call) => call.name === request.name);
      const ran = position >= 0 ? unusedRestarts.splice(position, 1)[0] : undefined;
      if (ran) ran.ref = request.ref;
      return {
        id,
        kind: 'restart' as const,
        request,
        resumed: restartMetadata.resumed ?? true,
        replacedInput: restartMetadata.replacedInput !== undefined ? newInput : undefined,
        restartedToolCallId: ran?.id,
      };
    }
    // No answer and no marker: genkit names each request it could not resolve; anything else
    // was parked as pendingOutput, its marker lost from the recorded history (genkit 1.42 bug 3).
    if (resolution.kind === 'unresolved' && options.errorMessage?.includes(`'${label}'`) && /Unresolved tool request/.test(options.errorMessage)) {
      return { id, kind: 'unresolved' as const, request };
    }
    // The reused output: from the marker when genkit left it, else from the parked call once linked.
    return { id, kind: 'pending' as const, request, output: metadata.pendingOutput };
  });
}
