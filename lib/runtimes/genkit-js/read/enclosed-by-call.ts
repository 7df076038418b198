import type { Span } from '../../../spans/span';
import { enclosingCall, type SpanIndex } from '../../../loop/span-index';

const GENERATE_SEGMENT = /\{generate,t:(util|action)/g;

/**
 * Inside a call (a later turn inside the previous one, a tool inside its generate): the parent
 * chain says so; where a parent is missing, `genkit:path` still names the ancestry
 * (`/{flow,t:flow}/{generate,t:util}/{transferMoney,t:action,s:tool}`) — its own segment counts
 * for a generate span.
 */
export function enclosedByCall(index: SpanIndex, span: Span): boolean {
  const { call, chainBroken } = enclosingCall(index, span);
  if (call) return true;
  if (!chainBroken) return false;
  const path = span.attributes['genkit:path'];
  if (typeof path !== 'string') return false;
  const own = index.classify(span).role === 'generate' ? 1 : 0;
  return (path.match(GENERATE_SEGMENT)?.length ?? 0) > own;
}
