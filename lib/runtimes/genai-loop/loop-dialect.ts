/**
 * A framework's dialect built from its flavor (loop-flavor.ts): classification (a pause is
 * `interrupted`, never an error), the call reader (read-loop-call.ts), tools run on their own,
 * what linking shows (loop-after-linking.ts), span values and conversations in the OTel GenAI
 * conventions' shapes, and the framework's resume rules. One line in lib/runtimes/index.ts (`DIALECTS`) registers it.
 */
import type { ConversationView, MessagePartView, MessageView } from '../../contract/conversation-view';
import type { Span } from '../../spans/span';
import { classifyOtelSpan, type SpanClassification, type SpanRole } from '../../spans/span-classification';
import { closeGenAiOpenSpan } from '../otel-genai/read/genai-open-spans';
import type { RuntimeDialect, SpanValues } from '../../loop/runtime-dialect';
import { enclosingCall } from '../../loop/span-index';
import { GEN_AI } from '../otel-genai/read/genai-attributes';
import type { GenAiMessage, GenAiPart } from '../otel-genai/read/genai-messages';
import { OPENINFERENCE } from '../openinference/openinference-attributes';
import { loopAfterLinking } from './loop-after-linking';
import type { LoopFlavor, LoopSpanKind } from './loop-flavor';
import { loopToolCall } from './loop-tool-calls';
import { readLoopCall } from './read-loop-call';

const ROLES: Record<LoopSpanKind, SpanRole> = { call: 'generate', model: 'model', tool: 'tool', flow: 'flow', other: 'other' };

/** Classifies one span of the flavor's framework. Pure; computed once per span by the span index. */
export function classifyLoopSpan(flavor: LoopFlavor, span: Span): SpanClassification {
  const kind = flavor.kindOf(span);
  const base = classifyOtelSpan(span);
  let outcome = base.outcome;
  // A pause the framework records as an exception (LangGraph's GraphInterrupt) is a pause, not an error.
  if (outcome !== 'running' && flavor.pauseOf?.(span) !== undefined) outcome = 'interrupted';
  outcome = flavor.outcomeOf?.(span, outcome) ?? outcome;
  const label = flavor.labelOf?.(span, kind) ?? span.name;
  return { ...base, role: ROLES[kind], label, outcome, errorMessage: outcome === 'error' ? (flavor.errorMessageOf?.(span) ?? base.errorMessage) : undefined };
}

function partView(part: GenAiPart): MessagePartView {
  const markers = part.extra ? Object.entries(part.extra).map(([name, value]) => ({ name, value })) : [];
  if (part.type === 'text') return { kind: 'text', value: part.content, markers };
  if (part.type === 'tool_call') return { kind: 'tool-request', name: part.name, ref: part.id, value: part.arguments, markers };
  if (part.type === 'tool_call_response') return { kind: 'tool-response', name: part.name, ref: part.id, value: part.response, markers };
  return { kind: 'other', value: { type: part.type, ...part.extra }, markers: [] };
}

const messageView = (message: GenAiMessage): MessageView => ({ role: message.role, parts: message.parts.map(partView) });

/** A call or model span's conversation as the message view shows it (the conventions' parts, typed). */
export function loopConversationOf(flavor: LoopFlavor, span: Span): ConversationView | undefined {
  const kind = flavor.kindOf(span);
  if (kind !== 'call' && kind !== 'model') return undefined;
  const view = flavor.messagesOf(span);
  if (view.input.messages.length === 0 && view.output.messages.length === 0) return undefined;
  return { sent: view.input.messages.map(messageView), received: view.output.messages.map(messageView) };
}

/** What went in and came out of a span, by the attributes its instrumentation writes (the GenAI conventions' or OpenInference's). */
export function loopSpanValues(flavor: LoopFlavor, span: Span): SpanValues {
  const kind = flavor.kindOf(span);
  const own = flavor.spanValues?.(span, kind);
  if (own) return own;
  const keys =
    kind === 'tool'
      ? [GEN_AI.toolArguments, GEN_AI.toolResult]
      : kind === 'call' || kind === 'model'
        ? [GEN_AI.inputMessages, GEN_AI.outputMessages]
        : [];
  const [inputKey, outputKey] = keys.length > 0 && keys.some((key) => span.attributes[key] !== undefined) ? keys : [OPENINFERENCE.inputValue, OPENINFERENCE.outputValue];
  const present = [inputKey, outputKey].filter((key) => span.attributes[key] !== undefined);
  // A pause's metadata, as the framework's pause reading found it (an interrupt's value, a confirmation's placeholder).
  const pause = flavor.pauseOf?.(span);
  return { input: span.attributes[inputKey], output: span.attributes[outputKey], ...(pause ? { interruptMetadata: JSON.stringify(pause.metadata) ?? 'true' } : {}), attributeKeys: present };
}

/** The dialect of a framework read by the shared GenAI-loop reader. */
export function loopDialect(flavor: LoopFlavor): RuntimeDialect {
  return {
    id: flavor.id,
    title: flavor.title,
    explains: flavor.explains,
    claimedBy: flavor.claimedBy,
    claims: (span) => flavor.claims(span),
    classify: (span) => classifyLoopSpan(flavor, span),
    // The frameworks' spans carry no ancestry of their own: the parent chain decides, unless the
    // framework says a nested call is a run of its own.
    enclosedByCall: (index, span) => !(flavor.kindOf(span) === 'call' && flavor.ownCall?.(span) === true) && enclosingCall(index, span).call !== undefined,
    readCall: (options) => readLoopCall(flavor, options),
    readStandaloneTool: (index, span) => loopToolCall({ flavor, index, span, loopWentOn: false }),
    notesAfterLinking: (generates) => loopAfterLinking(flavor, generates),
    spanValues: (span) => loopSpanValues(flavor, span),
    conversationOf: (span) => flavor.conversationOf?.(span) ?? loopConversationOf(flavor, span),
    // A framework's tool span that started and has not ended: its code runs now.
    runningTool: (span) => {
      if (flavor.kindOf(span) !== 'tool') return undefined;
      const tool = flavor.toolOf(span);
      return { name: tool.name, ...(tool.callId !== undefined ? { ref: tool.callId } : {}) };
    },
    closeOpenSpan: closeGenAiOpenSpan,
    ...(flavor.resume ? { resume: flavor.resume } : {}),
  };
}
