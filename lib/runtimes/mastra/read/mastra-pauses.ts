/**
 * Mastra's pauses as its spans record them (docs/guides/mastra.md). A run that pauses ends with
 * its output `{"status": "suspended", "reason", "toolName", "toolCallId"}`, naming the one call
 * it paused on (Mastra pauses on one call at a time):
 * - `tool-call-approval` (a tool created with `requireApproval`, or `requireToolApproval` for
 *   every tool): the call has no tool span; its approval request is a `model_chunk` span whose
 *   output holds the call's id, name, arguments and the `resumeSchema` an answer must keep —
 *   drawn *approval required*;
 * - `tool-call-suspended` (the tool called `suspend()`): the tool's span ended OK with no result;
 *   the suspend payload is in no span — drawn *suspended*.
 * A run that answers one approval and pauses on the next call of the same step pauses on a call
 * none of its own model calls asked for. Some spans Mastra 1.71 never ends (an answering run that
 * pauses again: the step it re-entered; a run a processor's tripwire ended: its run, model and step
 * spans): they never arrive, and the spans that hang from them say so in notes.
 */
import { isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import type { CallPause, LoopPause } from '../../genai-loop/loop-flavor';
import type { ToolCall } from '../../../loop/loop-model';
import { enclosingCall, type SpanIndex } from '../../../loop/span-index';
import { spansOfLoopCall } from '../../genai-loop/read-loop-call';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { MASTRA, mastraType, recordedObject, recordedValue } from './mastra-spans';

export const APPROVAL_REASON = 'tool-call-approval';
export const SUSPEND_REASON = 'tool-call-suspended';

/** An approval request as its chunk span records it. */
export interface MastraApproval {
  toolCallId: string;
  toolName: string;
  args: unknown;
  resumeSchema?: unknown;
}

/** The approval request a `model_chunk` span records (a `tool-call-approval` chunk: its output has the call and a resumeSchema), else undefined. */
export function approvalOf(span: Span): MastraApproval | undefined {
  if (mastraType(span) !== 'model_chunk') return undefined;
  const output = recordedObject(span.attributes[MASTRA.chunkOutput]);
  if (!output || typeof output.toolCallId !== 'string' || typeof output.toolName !== 'string' || output.resumeSchema === undefined) return undefined;
  const schema = typeof output.resumeSchema === 'string' ? recordedValue(output.resumeSchema) : output.resumeSchema;
  return { toolCallId: output.toolCallId, toolName: output.toolName, args: output.args, ...(isObject(schema) ? { resumeSchema: schema } : {}) };
}

/** The call a run paused on, from its output, when it paused. */
export function suspensionOf(run: Span): { reason: string; toolName?: string; toolCallId?: string } | undefined {
  const output = recordedObject(run.attributes[MASTRA.runOutput]);
  if (output?.status !== 'suspended' || typeof output.reason !== 'string') return undefined;
  return { reason: output.reason, ...(typeof output.toolName === 'string' ? { toolName: output.toolName } : {}), ...(typeof output.toolCallId === 'string' ? { toolCallId: output.toolCallId } : {}) };
}

/** The approval request of a call anywhere in its trace (an answering run that pauses again records it under a step that never arrives). */
function approvalOfCall(options: { index: SpanIndex; run: Span; toolCallId: string }): MastraApproval | undefined {
  for (const span of options.index.spans) {
    if (span.traceId !== options.run.traceId) continue;
    const approval = approvalOf(span);
    if (approval?.toolCallId === options.toolCallId) return approval;
  }
  return undefined;
}

function approvalPause(approval: MastraApproval | undefined): LoopPause {
  return {
    pausedAs: 'approval required (requireApproval)',
    metadata: { reason: APPROVAL_REASON, ...(approval?.resumeSchema !== undefined ? { resumeSchema: approval.resumeSchema } : {}) },
    evidence: 'attribute',
    ...(approval?.resumeSchema !== undefined ? { answerSchema: approval.resumeSchema } : {}),
  };
}

const SUSPENDED: LoopPause = { pausedAs: 'suspended (suspend())', metadata: { reason: SUSPEND_REASON }, evidence: 'attribute' };

/**
 * The pause a run's output names, when no tool span of the run holds it (an approval: the tool did
 * not run). It names its call whole, for a run that pauses on a call none of its model calls asked for.
 */
export function mastraPausesOfCall(options: { index: SpanIndex; root: Span }): CallPause[] {
  const { index, root } = options;
  const suspension = suspensionOf(root);
  if (!suspension?.toolCallId) return [];
  const ran = spansOfLoopCall(index, root).tools.some((span) => span.attributes[GEN_AI.toolCallId] === suspension.toolCallId);
  if (ran) return [];
  const approval = approvalOfCall({ index, run: root, toolCallId: suspension.toolCallId });
  const pause = suspension.reason === SUSPEND_REASON ? SUSPENDED : approvalPause(approval);
  return [{ ...pause, callId: suspension.toolCallId, request: { name: suspension.toolName ?? approval?.toolName ?? 'unknown tool', ref: suspension.toolCallId, ...(approval ? { input: approval.args } : {}) } }];
}

/** A tool span that suspended its run (`suspend()`): the run's output names it. */
export function suspendedToolPause(options: { call: ToolCall; span: Span; index: SpanIndex }): LoopPause | undefined {
  const run = enclosingCall(options.index, options.span).call;
  const suspension = run ? suspensionOf(run) : undefined;
  const toolCallId = suspension?.toolCallId;
  if (!run || !suspension || toolCallId === undefined || toolCallId !== options.call.ref || options.span.attributes[GEN_AI.toolResult] !== undefined || options.span.status.code === 2) return undefined;
  return suspension.reason === APPROVAL_REASON ? approvalPause(approvalOfCall({ index: options.index, run, toolCallId })) : SUSPENDED;
}

/** Spans whose parent never arrived (Mastra never ended it), that belong to this run: the same run id and the same run it resumed from. */
function orphansOf(index: SpanIndex, run: Span): Span[] {
  const present = new Set(index.spans.filter((span) => span.traceId === run.traceId).map((span) => span.spanId));
  return index.spans.filter(
    (span) =>
      span.traceId === run.traceId &&
      span.parentSpanId !== undefined &&
      !present.has(span.parentSpanId) &&
      span.attributes[MASTRA.runId] === run.attributes[MASTRA.runId] &&
      span.attributes[MASTRA.resumedFromSpanId] === run.attributes[MASTRA.resumedFromSpanId],
  );
}

/** A run's notes: spans of it that hang from a span Mastra never ended (it never arrived). */
export function mastraNotesOf(options: { index: SpanIndex; root: Span }): string[] {
  const orphans = orphansOf(options.index, options.root);
  const parents = [...new Set(orphans.map((span) => span.parentSpanId as string))];
  return parents.map((parent) => {
    const hanging = orphans.filter((span) => span.parentSpanId === parent);
    const kinds = [...new Set(hanging.map((span) => mastraType(span) ?? span.name))].join(', ');
    return `Span ${parent} of this run never arrived: Mastra did not end it (Mastra 1.71 leaves open the step a run answered by approveToolCall re-enters when it pauses again). ${hanging.length} span(s) of the run hang from it (${kinds}); they are read without it.`;
  });
}

/**
 * A tool span whose run never arrived because a processor's tripwire ended the run (Mastra 1.71
 * does not end the run, model and step spans then): the processor that tripped and why, in words.
 */
export function tripwireOf(options: { index: SpanIndex; span: Span }): { processor: string; reason?: string } | undefined {
  const { index, span } = options;
  if (enclosingCall(index, span).call) return undefined;
  const tripped = index.spans.find((candidate) => candidate.traceId === span.traceId && mastraType(candidate) === 'processor_run' && candidate.status.code === 2 && candidate.attributes[MASTRA.runId] === span.attributes[MASTRA.runId]);
  if (!tripped) return undefined;
  const reason = stringAttribute(tripped.attributes['error.message']) ?? tripped.status.message;
  return { processor: tripped.name.replace(/^processor_run /, ''), ...(reason ? { reason } : {}) };
}
