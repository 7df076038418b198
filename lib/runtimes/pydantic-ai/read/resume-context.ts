/**
 * The context to answer a paused Pydantic AI run, rebuilt from its spans: the calls of the paused
 * model answer — each paused one with what it waits for (an approval: `requires_approval`,
 * `ApprovalRequired`; the caller's result: `CallDeferred`, an external tool) in Pydantic AI's
 * words — the tools offered, and the message history the answer goes with: the run's
 * `pydantic_ai.all_messages` (what `result.all_messages()` returned: the history, the paused
 * model answer and the results of the calls that ran), and its `gen_ai.conversation.id`.
 */
import type { Span } from '../../../spans/span';
import type { LoopFlavor } from '../../genai-loop/loop-flavor';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import type { GenerateCall, ToolCall } from '../../../loop/loop-model';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import type { PendingRequest, ResumeContext } from '../../../loop/resume-model';
import type { SpanIndex } from '../../../loop/span-index';
import { agentRunConversation } from './pydantic-messages';
import { PAUSED_AS } from './pydantic-pauses';

/** What a paused call waits for, by Pydantic AI's word for its pause. */
export function waitsFor(pausedAs: string | undefined): 'approval' | 'result' {
  return pausedAs?.startsWith('approval required') ? 'approval' : 'result';
}

/** True for a call of an external tool (`ExternalToolset`): Pydantic AI cannot run it, so it cannot be approved. */
export const isExternal = (request: Pick<PendingRequest, 'pausedAs'>) => request.pausedAs === PAUSED_AS.external;

function factsOf(call: ToolCall): Partial<PendingRequest> {
  const pausedAs = call.interrupt?.pausedAs;
  const waiting = waitsFor(pausedAs);
  return {
    waitingFor: waiting,
    waitingEvidence:
      waiting === 'approval'
        ? `Pydantic AI deferred it for an approval (${pausedAs}): it is in DeferredToolRequests.approvals`
        : `Pydantic AI deferred it for the caller's result (${pausedAs}): it is in DeferredToolRequests.calls`,
  };
}

/** The context of a paused Pydantic AI run (`call`: as the graph read it, when the caller built one). */
export function pydanticResumeContext(options: { flavor: LoopFlavor; root: Span; index: SpanIndex; call?: GenerateCall }): ResumeContext {
  const conversationId = stringAttribute(options.root.attributes[GEN_AI.conversationId]);
  const context = loopResumeContext({ ...options, factsOf, ...(conversationId !== undefined ? { conversationId } : {}) });
  const { all } = agentRunConversation(options.root);
  // The message history the app passes back is the whole run's (result.all_messages()), not the paused model call's input.
  return all.length > 0 ? { ...context, messages: structuredClone(all) } : context;
}
