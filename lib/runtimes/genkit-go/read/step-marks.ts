import type { Span } from '../../../spans/span';
import type { ReadCall } from '../../../loop/runtime-dialect';
import type { SpanIndex } from '../../../loop/span-index';

/**
 * On a genkit Go `generate` span (one model turn): its model call was sent a request edited by
 * hand at a Loopscope pause (go/runner/step.go). The AI SDK's name for the same mark
 * (lib/runtimes/ai-sdk/read/loopscope-markers.ts): stepping Go is read in the words stepping the SDK is.
 */
export const GO_EDITED_REQUEST_MARKER = 'loopscope.step.edited_request';

/**
 * The notes a stepped Go call's marks leave: which model call was sent an edited request (its
 * model span's input is what it was sent; the generate span's input is what the loop held).
 */
export function withStepNotes({ read, index, root }: { read: ReadCall; index: SpanIndex; root: Span }): ReadCall {
  // A call's turns are generate spans nested in one another under its root.
  const edited = new Set<string>();
  for (let current: Span | undefined = root; current; current = index.childrenOf(current).find((child) => child.name === 'generate')) {
    if (current.attributes[GO_EDITED_REQUEST_MARKER] === 'true') edited.add(current.spanId);
  }
  if (edited.size === 0) return read;
  const notes = read.call.turns.flatMap((turn, position) =>
    edited.has(turn.generateSpanId)
      ? [`Model call ${position + 1} was sent a request edited by hand at a pause: its model span's input is what it was sent; the generate span's input is what the loop would have sent.`]
      : [],
  );
  // Set on the call just read (not a spread copy: that would give the call a hidden class of its own, new-generate-call.ts).
  if (notes.length > 0) read.call.notes = [...read.call.notes, ...notes];
  return read;
}
