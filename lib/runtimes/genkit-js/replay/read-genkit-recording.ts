import { LoopscopeError } from '../../../errors';
import type { Span } from '../../../spans/span';
import { dialectTitle } from '../../index';
import { readReplayable } from '../../read-recording';
import { GENKIT_DIALECT_ID } from '../read/dialect-id';
import type { Recording } from '../read/recording';

/**
 * The genkit JS recording in these spans (readReplayable, for callers that replay genkit JS only).
 * @throws LoopscopeError FAILED_PRECONDITION when there is nothing to replay, the calls are another runtime's (read them with readReplayable), or a generate did not record its input.
 */
export function readRecording(spans: readonly Span[]): Recording {
  const read = readReplayable(spans);
  if (read.runtime !== GENKIT_DIALECT_ID) throw new LoopscopeError('FAILED_PRECONDITION', `These are ${dialectTitle(read.runtime)} calls: read them with readReplayable, which reads every runtime.`);
  return read.recording as Recording;
}
