import { jsonAttributeOrUndefined } from '../../trace/parse-json-attribute';
import type { Span } from '../../trace/span';
import { memoSlot, type SpanIndex } from '../span-index';

const GENERATE_INPUT = memoSlot<unknown>('genkit generate input');

const parse = (root: Span) => jsonAttributeOrUndefined(root.attributes['genkit:input']);

/**
 * A generate span's `genkit:input`, parsed (undefined when absent or not JSON): once per build
 * when the build's index is given, since two readers want it — the call reader for a resume's
 * parts, genkit Go's for the ToolApproval it used — and it holds the whole history the call sent.
 * (Attributes read once are parsed where they are read: kept in the index, they would outlive
 * their reader until the build ends.)
 */
export function generateInput(root: Span, index?: SpanIndex): unknown {
  return index ? index.memo({ slot: GENERATE_INPUT, span: root, compute: parse }) : parse(root);
}
