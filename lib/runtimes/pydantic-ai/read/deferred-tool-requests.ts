/**
 * What a paused Pydantic AI run left waiting, read from its output: a run that pauses ends
 * normally with `final_result` = the `DeferredToolRequests` JSON — `{calls, approvals, metadata,
 * validated_args, _kinds}`, each call `{tool_name, args, tool_call_id}` — the only span-level
 * sign of a pause (docs/guides/pydantic-ai.md, "The pauses"). `approvals` wait for an approval
 * (`requires_approval=True`, or a tool that raised `ApprovalRequired`), `calls` for the caller's
 * result (a tool that raised `CallDeferred`, an `ExternalToolset` tool); `_kinds` marks a call
 * that is a question. Each model call's `model_request_parameters` says each tool's kind
 * (`unapproved`, `external`, `function`).
 */
import { isObject } from '../../../spans/json-value';
import { parseJsonAttribute } from '../../../spans/parse-json-attribute';
import type { Span } from '../../../spans/span';
import { PYDANTIC_AI } from './pydantic-attributes';

/** One call the paused run left waiting, as `DeferredToolRequests` records it. */
export interface DeferredCall {
  toolName: string;
  callId: string;
  args: unknown;
  /** `approvals` (an approval) or `calls` (the caller's result). */
  waitsFor: 'approval' | 'result';
  /** The metadata the pause carried (`DeferredToolRequests.metadata[id]`), when any. */
  metadata?: unknown;
  /** `_kinds[id]`: `question` for a call deferred as a question. */
  kind?: string;
}

function callsOf(options: { list: unknown; waitsFor: DeferredCall['waitsFor']; metadata: Record<string, unknown>; kinds: Record<string, unknown> }): DeferredCall[] {
  if (!Array.isArray(options.list)) return [];
  return options.list.flatMap((call): DeferredCall[] => {
    if (!isObject(call) || typeof call.tool_call_id !== 'string' || typeof call.tool_name !== 'string') return [];
    const id = call.tool_call_id;
    const metadata = Object.hasOwn(options.metadata, id) ? options.metadata[id] : undefined;
    const kind = Object.hasOwn(options.kinds, id) && typeof options.kinds[id] === 'string' ? (options.kinds[id] as string) : undefined;
    return [{ toolName: call.tool_name, callId: id, args: call.args, waitsFor: options.waitsFor, ...(metadata !== undefined ? { metadata } : {}), ...(kind ? { kind } : {}) }];
  });
}

/** The calls a paused run left waiting, from its `final_result`; undefined when its output is not a `DeferredToolRequests`. */
export function deferredToolRequests(root: Span): DeferredCall[] | undefined {
  const value = root.attributes[PYDANTIC_AI.finalResult];
  if (typeof value !== 'string' || !value.startsWith('{')) return undefined;
  const parsed = parseJsonAttribute(value);
  if (!parsed.ok || !isObject(parsed.value) || !Array.isArray(parsed.value.calls) || !Array.isArray(parsed.value.approvals)) return undefined;
  const metadata = isObject(parsed.value.metadata) ? parsed.value.metadata : {};
  const kinds = isObject(parsed.value._kinds) ? parsed.value._kinds : {};
  return [...callsOf({ list: parsed.value.approvals, waitsFor: 'approval', metadata, kinds }), ...callsOf({ list: parsed.value.calls, waitsFor: 'result', metadata, kinds })];
}

/** Each tool's kind in a model call's `model_request_parameters` (`function`, `unapproved`, `external`), by name. */
export function toolKindsOf(span: Span): Map<string, string> {
  const kinds = new Map<string, string>();
  const value = span.attributes[PYDANTIC_AI.modelRequestParameters];
  if (typeof value !== 'string') return kinds;
  const parsed = parseJsonAttribute(value);
  if (!parsed.ok || !isObject(parsed.value)) return kinds;
  for (const key of ['function_tools', 'output_tools']) {
    const tools = parsed.value[key];
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) if (isObject(tool) && typeof tool.name === 'string' && typeof tool.kind === 'string' && !kinds.has(tool.name)) kinds.set(tool.name, tool.kind);
  }
  return kinds;
}
