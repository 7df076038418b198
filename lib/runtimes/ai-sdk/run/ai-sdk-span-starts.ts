/**
 * What the runner reports of an AI SDK span when it starts (lib/runner/span-starts.ts): the OTel
 * GenAI conventions' attributes `@ai-sdk/otel` sets at a span's start — the operation, the agent,
 * the requested model, and a tool's name, call id, type and arguments.
 */
import type { SpanStarts } from '../../../runner/span-starts';
import { GEN_AI, MODEL_OPERATIONS, TOOL_OPERATIONS } from '../../otel-genai/read/genai-attributes';
import { isLoopscopeModel } from '../read/loopscope-markers';

export const aiSdkSpanStarts: SpanStarts = {
  attributes: [GEN_AI.operation, GEN_AI.agentName, GEN_AI.requestModel, GEN_AI.toolName, GEN_AI.toolCallId, GEN_AI.toolType, GEN_AI.toolArguments],
  /** A tool's `execute`, or a model call on a model that is not Loopscope's own. */
  runsCode(attributes) {
    const operation = attributes[GEN_AI.operation];
    if (operation === undefined) return false;
    return TOOL_OPERATIONS.has(operation) || (MODEL_OPERATIONS.has(operation) && !isLoopscopeModel(attributes[GEN_AI.requestModel]));
  },
};
