/**
 * A GenAI-loop call's messages, read once per build. A call span holds the run's conversation
 * (Pydantic AI's `all_messages`, a Strands agent span's history and answer): its classification
 * may need them before its reader does (Strands: a run that stopped on interrupts is paused, by
 * its finish reason), and the reader needs them and hands them to the flavor's hooks (pauses,
 * notes, tools' facts) — each of which read them anew before. What the classification read is
 * kept in the build's index; the reader takes it (`last`) and lets it go.
 */
import type { Span } from '../../spans/span';
import { memoSlot, type SpanIndex } from '../../loop/span-index';
import type { LoopFlavor, LoopMessages } from './loop-flavor';

const CALL_MESSAGES = memoSlot<LoopMessages>('genai-loop call messages');

/**
 * The messages of a call span (`flavor.messagesOf`): parsed once per build when the build's
 * index is given (the reader passes `last`), on each ask without one (keep the result).
 */
export function loopCallMessages(options: { flavor: Pick<LoopFlavor, 'messagesOf'>; span: Span; index?: SpanIndex; last?: boolean }): LoopMessages {
  const { flavor, span, index } = options;
  return index ? index.memo({ slot: CALL_MESSAGES, span, compute: flavor.messagesOf, last: options.last }) : flavor.messagesOf(span);
}
