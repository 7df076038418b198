/**
 * Strands Agents' flavor of the shared GenAI-loop reader (lib/runtimes/genai-loop/): its content in any
 * of the tracer's modes (strands-spans.ts, strands-content.ts), its interrupts read from the
 * Python repr in the agent span's answer (strands-interrupts.ts): a BeforeToolCallEvent hook's
 * (`held by a hook`), the HumanInTheLoop intervention's (`approval required`) — both leave no
 * tool span — and `tool_context.interrupt` inside a tool (`interrupt`: a tool span with no
 * result); the answering run linked by the tool use ids (strands-answers.ts). What each records is in
 * docs/guides/strands.md.
 */
import type { Span } from '../../../spans/span';
import { enclosingCall } from '../../../loop/span-index';
import { genAiLabelOf, genAiLoopKind } from '../../genai-loop/genai-span-reading';
import { interruptOf } from '../../genai-loop/loop-tool-calls';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { STRANDS_DIALECT_ID } from './dialect-id';
import { readStrandsAnswers, strandsAfterLinking } from './strands-answers';
import { INTERRUPT_FINISH_REASON, pausesBeforeTools, strandsInterrupts, strandsPause } from './strands-interrupts';
import { strandsMessagesOf, strandsSpanValues, strandsToolOf, strandsToolPause } from './strands-spans';

export { STRANDS_DIALECT_ID };

/** The instrumentation scope of Strands' tracer (no version is recorded). */
export const STRANDS_SCOPE = 'strands.telemetry.tracer';

const words: LoopFlavor['words'] = {
  toolError: { code: 'tool-error', words: 'failed — Strands gave the error to the model as the tool result and the loop went on' },
  notExecuted: {
    pausedAs: 'not executed',
    metadata: { waitingFor: 'an answer from outside the loop', evidence: 'asked for in the last model call, and no tool span ran it before the run ended' },
    evidence: 'message',
  },
  neverRan: { code: 'never-ran', words: 'never ran — the run failed first' },
  ranAgain: 'ran in the answering run',
  answeredWithoutSpan: 'denied — the tool did not run (no execute_tool span in the answering run)',
};

export const strandsFlavor: LoopFlavor = {
  id: STRANDS_DIALECT_ID,
  title: 'Strands Agents',
  explains: {
    pause:
      'Strands stopped the run on an interrupt (stop reason interrupt): raised by a BeforeToolCallEvent hook or the HumanInTheLoop intervention before the tool ran (no tool span), or by the tool itself through tool_context.interrupt (a tool span with no result). The run is answered by calling the same agent again with interruptResponse blocks, one per interrupt id.',
    resolutions: {
      respond: 'Denied — the tool did not run; the hook’s or intervention’s message reached the model as its result',
      restart: 'Approved (or resumed) — the tool ran in the answering run, before its first model call',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered: Strands pauses again on it',
    },
    sendSpans:
      'Set OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental,gen_ai_tool_definitions and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:4747/v1/traces, then StrandsTelemetry().setup_otlp_exporter() before the first Agent is made (docs/guides/strands.md).',
  },
  claimedBy: { scopes: [STRANDS_SCOPE] },
  claims: (span: Span) => span.scope.name === STRANDS_SCOPE,
  kindOf: genAiLoopKind,
  labelOf: genAiLabelOf,
  messagesOf: strandsMessagesOf,
  toolOf: strandsToolOf,
  pauseOf: (span) => strandsToolPause(span, genAiLoopKind(span)),
  // A run that stopped on interrupts is paused, never ok: its agent span records the stop reason `interrupt`.
  outcomeOf: (span, outcome) => (outcome === 'ok' && genAiLoopKind(span) === 'call' && strandsMessagesOf(span).finishReasons.includes(INTERRUPT_FINISH_REASON) ? 'interrupted' : outcome),
  pausesOfCall: ({ root }) => pausesBeforeTools(strandsInterrupts(strandsMessagesOf(root)).interrupts),
  // A tool that interrupted itself: its interrupt (name, reason, id) is in the agent span's answer.
  decorateTool: ({ call, span, index }) => {
    if (call.status !== 'interrupted') return;
    const root = enclosingCall(index, span).call;
    const interrupts = root ? strandsInterrupts(strandsMessagesOf(root)).interrupts : [];
    const own = interrupts.find((interrupt) => interrupt.source === 'tool' && interrupt.toolUseId === call.ref) ?? (interrupts.length === 1 && interrupts[0].source === 'tool' ? interrupts[0] : undefined);
    if (own) call.interrupt = interruptOf(strandsPause(own));
  },
  notesOf: ({ root }) => {
    const { problem } = strandsInterrupts(strandsMessagesOf(root));
    return problem ? [`Strands stopped this run on interrupts (stop reason interrupt), but ${problem}: the paused calls are drawn without their interrupts.`] : [];
  },
  readAnswers: (evidence) => readStrandsAnswers(evidence, words),
  afterLinking: (generates) => strandsAfterLinking({ generates, dialectId: STRANDS_DIALECT_ID }),
  spanValues: strandsSpanValues,
  words,
};
