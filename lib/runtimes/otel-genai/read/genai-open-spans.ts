/**
 * How Loopscope ends an open span of an app that follows the OTel GenAI conventions (a run it
 * stopped, a process that died under it): with an error status and `error.type`, the
 * conventions' low-cardinality class of the error — `cancelled` for a run the user stopped, the
 * conventions' own `_OTHER` otherwise. Never with another runtime's attributes.
 */
import type { Span } from '../../../spans/span';
import type { OpenSpanClosing, OpenSpanEnding } from '../../../loop/runtime-dialect';
import { GEN_AI } from './genai-attributes';

export function closeGenAiOpenSpan(_span: Span, ending: OpenSpanEnding): OpenSpanClosing {
  return {
    attributes: { [GEN_AI.errorType]: ending.kind === 'stopped' ? 'cancelled' : '_OTHER' },
    status: { code: 2, message: ending.message },
  };
}
