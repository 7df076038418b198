/**
 * Mastra's flavor of the shared GenAI-loop reader (lib/runtimes/genai-loop/): its own span types
 * mapped onto the loop (mastra-spans.ts: a run is a call, a step is a model call, a tool call is a
 * tool), its messages from its own attributes (mastra-messages.ts), its pauses — approval required,
 * suspended — from the run's output and its approval chunks (mastra-pauses.ts), and its answers,
 * recorded as the answering run's input and tied by run id and tool call id (mastra-answers.ts).
 * What each records is in docs/guides/mastra.md.
 */
import type { Span } from '../../../spans/span';
import { genAiLabelOf, genAiToolOf } from '../../genai-loop/genai-span-reading';
import { interruptOf } from '../../genai-loop/loop-tool-calls';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { MASTRA_DIALECT_ID } from './dialect-id';
import { mastraAfterLinking, mastraLinkScope, readMastraAnswers } from './mastra-answers';
import { mastraMessagesOf, mastraModelOf } from './mastra-messages';
import { mastraNotesOf, mastraPausesOfCall, suspendedToolPause, suspensionOf, tripwireOf } from './mastra-pauses';
import { isAnsweringRun, MASTRA, MASTRA_SCOPE, mastraKindOf, mastraType, recordedObject } from './mastra-spans';

export { MASTRA_DIALECT_ID, MASTRA_SCOPE };

const words: LoopFlavor['words'] = {
  toolError: { code: 'tool-error', words: 'failed — Mastra gave the model the error as a tool-error result and the loop went on' },
  notExecuted: {
    pausedAs: 'not executed',
    metadata: { waitingFor: 'an answer from outside the loop', evidence: 'asked for in the last model step, and no tool span ran it before the run ended' },
    evidence: 'message',
  },
  ranAgain: 'ran in the answering run',
  answeredWithoutSpan: 'answered without the tool running (no execute_tool span)',
};

export const mastraFlavor: LoopFlavor = {
  id: MASTRA_DIALECT_ID,
  title: 'Mastra',
  explains: {
    pause:
      'Mastra suspended the run on this call: the tool needs an approval (requireApproval: a tool-call-approval, the tool did not run) or the tool called suspend() (tool-call-suspended). The run is answered with agent.approveToolCall, agent.declineToolCall or agent.resumeStream and the run id; the answering run is recorded in the same trace.',
    resolutions: {
      respond: 'Declined — the tool did not run; the model is told it was declined',
      restart: 'Approved, or resumed with data — the tool ran in the answering run',
      pending: 'Reused a finished result — not run again',
      unresolved: 'Left unanswered',
    },
    sendSpans:
      'Add an OtelExporter from @mastra/otel-exporter to the Mastra instance’s observability, with provider { custom: { endpoint: "http://127.0.0.1:4747/v1/traces", protocol: "http/protobuf" } }, and shut observability down before a script exits (docs/guides/mastra.md).',
  },
  claimedBy: { scopes: [MASTRA_SCOPE] },
  claims: (span: Span) => span.scope.name === MASTRA_SCOPE,
  kindOf: mastraKindOf,
  ownCall: isAnsweringRun,
  labelOf: (span, kind) => {
    if (kind === 'tool') return genAiLabelOf(span, kind);
    if (kind !== 'model') return undefined;
    const metadata = recordedObject(span.attributes[MASTRA.modelMetadata]);
    return typeof metadata?.modelId === 'string' ? metadata.modelId : undefined;
  },
  messagesOf: mastraMessagesOf,
  modelNameOf: mastraModelOf,
  toolOf: genAiToolOf,
  // A run that suspended is paused, never ok: its output says `status: suspended`.
  outcomeOf: (span, outcome) => (outcome === 'ok' && mastraType(span) === 'agent_run' && suspensionOf(span) !== undefined ? 'interrupted' : outcome),
  pausesOfCall: ({ index, root }) => mastraPausesOfCall({ index, root }),
  decorateTool: ({ call, span, index }) => {
    const pause = suspendedToolPause({ call, span, index });
    if (pause) {
      call.status = 'interrupted';
      call.interrupt = interruptOf(pause);
      return;
    }
    const tripwire = tripwireOf({ index, span });
    if (!tripwire) return;
    const why = `${tripwire.processor}${tripwire.reason ? `: ${JSON.stringify(tripwire.reason)}` : ''}`;
    call.notes = [...(call.notes ?? []), `An output processor tripped Mastra's tripwire (${why}) and ended this tool's run; Mastra 1.71 then never ends the run's agent, model and step spans, so they never arrived and this tool is drawn outside any run.`];
    if (call.status === 'error') call.runtimeState = { code: 'tripwire', words: `failed — the processor ${tripwire.processor} tripped Mastra's tripwire on it and ended the run` };
  },
  // What a run and a step sent and got, where Mastra keeps them (its own attributes); a tool's are the conventions'.
  spanValues: (span, kind) => {
    const keys = kind === 'call' ? [MASTRA.runInput, MASTRA.runOutput] : kind === 'model' ? [MASTRA.stepInput, MASTRA.stepOutput] : undefined;
    if (!keys) return undefined;
    return { input: span.attributes[keys[0]], output: span.attributes[keys[1]], attributeKeys: keys.filter((key) => span.attributes[key] !== undefined) };
  },
  notesOf: ({ index, root }) => mastraNotesOf({ index, root }),
  readAnswers: readMastraAnswers,
  linkScope: ({ root }) => mastraLinkScope({ root }),
  afterLinking: (generates) => mastraAfterLinking({ generates, dialectId: MASTRA_DIALECT_ID }),
  words,
};
