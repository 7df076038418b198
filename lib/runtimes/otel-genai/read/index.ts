/**
 * Apps of no known framework that follow the OTel GenAI semantic conventions
 * (lib/runtimes/otel-genai/read/): any span with `gen_ai.operation.name` that no framework's dialect
 * claimed (lib/runtimes/index.ts asks it last). Read by the shared GenAI-loop reader
 * (lib/runtimes/genai-loop/) with the conventions alone: `invoke_agent` calls, `chat` /
 * `generate_content` / `text_completion` model calls, `execute_tool` tools paired with the
 * model's calls by call id (else by name and arguments), messages on the spans or on their
 * operation-details event, finish reasons from the attribute or the output messages. Nothing in
 * the conventions marks a pause: a call left waiting for a tool no span ran is drawn as paused
 * ("not executed"), an answering call is linked by the tool call ids of the calls it answers.
 * Its answers are not checked: no framework's rules are known.
 */
import type { Span } from '../../../spans/span';
import { genAiOperation } from './genai-attributes';
import { genAiLabelOf, genAiLoopKind, genAiMessagesOf, genAiToolOf } from '../../genai-loop/genai-span-reading';
import { loopDialect } from '../../genai-loop/loop-dialect';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { OTEL_GENAI_DIALECT_ID } from './dialect-id';

export { OTEL_GENAI_DIALECT_ID };

/** The conventions' flavor: no framework's words, no framework's evidence. */
export const otelGenAiFlavor: LoopFlavor = {
  id: OTEL_GENAI_DIALECT_ID,
  title: 'OpenTelemetry GenAI',
  explains: {
    pause:
      'The model asked for this tool call and no tool span ran it before the call ended: it waits for something outside the loop (an approval, the caller’s result). The OTel GenAI conventions have no mark for a pause; the app’s framework decides how it is answered.',
    resolutions: {
      respond: 'Answered without running the tool — its result reached the next model call with no tool span',
      restart: 'The tool ran in the answering call, before its first model call',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered by the answering call',
    },
    sendSpans:
      'Any app whose framework follows the OTel GenAI semantic conventions (gen_ai.operation.name on its invoke_agent, chat and execute_tool spans) and exports OTLP/HTTP to /v1/traces is drawn; set its exporter’s traces endpoint to http://127.0.0.1:4747/v1/traces and turn message content capture on.',
  },
  claimedBy: { attributes: ['gen_ai.operation.name'] },
  claims: (span: Span) => genAiOperation(span) !== undefined,
  kindOf: genAiLoopKind,
  labelOf: genAiLabelOf,
  messagesOf: genAiMessagesOf,
  toolOf: genAiToolOf,
  words: {
    toolError: { code: 'tool-error', words: 'failed — the error was given to the model and the loop went on' },
    notExecuted: {
      pausedAs: 'not executed',
      metadata: { waitingFor: 'an answer from outside the loop', evidence: 'asked for in the last model call, and no tool span ran it before the call ended' },
      evidence: 'message',
    },
    ranAgain: 'ran in the answering call',
    answeredWithoutSpan: 'answered before the next model call (no tool span recorded)',
  },
};

export const otelGenAi = loopDialect(otelGenAiFlavor);
