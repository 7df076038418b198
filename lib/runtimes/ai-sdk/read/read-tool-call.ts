/**
 * AI SDK tool calls in the loop model: from an `execute_tool` / `ai.toolCall` span, or — when
 * no span ran — from what the model saw as the call's result in the next turn (a parse error,
 * a denial) or from the call being the one the loop stopped for (pending).
 */
import { canonicalJson } from '../../../spans/json-value';
import { jsonAttributeOrUndefined } from '../../../spans/parse-json-attribute';
import { spanKey, type Span } from '../../../spans/span';
import type { ToolCall, ToolRequestData } from '../../../loop/loop-model';
import { requestLabel } from '../../../loop/loop-model';
import type { SpanIndex } from '../../../loop/span-index';
import type { OfferedTool } from '../../otel-genai/read/genai-tool-definitions';
import { denialOf, parseErrorOf, PROVIDER_EXECUTED_TOOL_TYPE, PROVIDER_TOOL_DEFINITION_TYPE, STATES } from './sdk-words';
import { AI_SDK_STEP_MARKERS } from './loopscope-markers';
import { toolView } from './span-views';

/** What the model saw of a call, around the turn that asked for it. */
export interface CallContext {
  /** The result the provider returned in the same answer (a provider-executed tool). */
  ownResponse?: { value: unknown };
  /** The result the next model call was sent for it. */
  nextResponse?: { value: unknown };
  /** A later model call followed in the same loop. */
  loopWentOn: boolean;
  /** The model's answer that asked for it did not stop for tools (a finish reason other than `tool-calls`). */
  answerFinished?: boolean;
  /** How the tool was offered to the model: `undefined` when the offered tools are not recorded, `null` when it was not among them. */
  offered?: OfferedTool | null;
}

/** A tool call from its span; `request` is what the model asked for (its input may differ: a repaired call). */
export function toolCallFromSpan({ index, span, request, context }: { index: SpanIndex; span: Span; request?: ToolRequestData; context?: CallContext }): ToolCall {
  const classification = index.classify(span);
  const view = toolView(span);
  const input = jsonAttributeOrUndefined(view.rawArguments) ?? view.rawArguments;
  const call: ToolCall = {
    id: spanKey(span),
    traceId: span.traceId,
    spanId: span.spanId,
    name: view.name,
    ref: view.callId ?? request?.ref,
    input,
    output: view.rawResult === undefined ? undefined : (jsonAttributeOrUndefined(view.rawResult) ?? view.rawResult),
    // A tool span is never a pause of its own: the SDK's pauses are calls that did not run.
    status: classification.outcome === 'interrupted' ? 'ok' : classification.outcome,
    restarted: false,
    parked: false,
    errorMessage: classification.errorMessage,
    resolvedBy: [],
    // Answered by hand at a Loopscope pause: the tool itself did not run (loopscope-markers.ts).
    ...(span.attributes[AI_SDK_STEP_MARKERS.answeredByHand] === 'true' ? { answeredByHand: true } : {}),
  };
  if (view.type === PROVIDER_EXECUTED_TOOL_TYPE) call.runtimeState = STATES.providerExecuted;
  else if (request && request.input !== undefined && input !== undefined && canonicalJson(request.input) !== canonicalJson(input)) call.runtimeState = STATES.repaired;
  // A tool error does not fail the call: the SDK gives the model a `tool-error` result and goes on.
  if (call.status === 'error' && (context?.nextResponse || context?.loopWentOn)) {
    call.runtimeState = STATES.toolError;
    call.loopWentOn = true;
  }
  return call;
}

/** A requested call no tool span ran for: parse error, denial, provider-executed, pending, or never run. */
export function toolCallWithoutSpan({ turnId, traceId, request, context, pending }: { turnId: string; traceId: string; request: ToolRequestData; context: CallContext; pending: boolean }): ToolCall {
  // Every outcome is one object literal of the same fields (not a spread of a base call): V8 gave
  // each spread copy a hidden class of its own (lib/dialects/new-generate-call.ts says why that costs).
  const call = (fields: Pick<ToolCall, 'status'> & Partial<Pick<ToolCall, 'output' | 'errorMessage' | 'runtimeState' | 'loopWentOn' | 'interrupt'>>): ToolCall => ({
    id: `${turnId}:request:${requestLabel(request)}`,
    traceId,
    name: request.name,
    ref: request.ref,
    input: request.input,
    status: fields.status,
    restarted: false,
    parked: false,
    resolvedBy: [],
    output: fields.output,
    errorMessage: fields.errorMessage,
    runtimeState: fields.runtimeState,
    loopWentOn: fields.loopWentOn,
    interrupt: fields.interrupt,
  });
  if (context.ownResponse) return call({ status: 'ok', output: context.ownResponse.value, runtimeState: STATES.providerExecuted });
  if (context.nextResponse) {
    const response = context.nextResponse.value;
    const parseError = parseErrorOf(response);
    if (parseError) return call({ status: 'error', output: response, errorMessage: parseError.message, runtimeState: STATES.parseError(parseError.code), loopWentOn: true });
    const denial = denialOf(response);
    if (denial) return call({ status: 'not-run', output: response, runtimeState: STATES.denied(denial.reason), loopWentOn: true });
    // Answered without a tool span (a span lost, or run elsewhere): what the model got is the output.
    return call({ status: 'ok', output: response });
  }
  // A provider tool with no recorded result: the provider ran it (the legacy spans record none).
  if (context.offered?.type === PROVIDER_TOOL_DEFINITION_TYPE) return call({ status: 'ok', runtimeState: STATES.providerTool });
  // Asked for in a final answer that did not stop for tools, and nothing ran it here: the provider did.
  if (context.answerFinished && !context.loopWentOn) return call({ status: 'ok', runtimeState: STATES.providerExecutedInferred });
  if (context.offered === null) return call({ status: 'not-run', runtimeState: STATES.notOffered });
  if (pending) {
    const offered = context.offered ? 'offered to the model as a function tool (its definition does not tell an approval from a tool without execute), ' : '';
    return call({
      status: 'interrupted',
      interrupt: {
        metadata: { waitingFor: 'an approval or the caller’s tool result', evidence: `${offered}asked for in the last model turn, never executed, and the call stopped with tool-calls` },
        evidence: 'message',
      },
    });
  }
  return call({ status: 'not-run' });
}
