import { LoopscopeError } from '../../errors';

/**
 * The LoopscopeError a call throws. Anything else thrown is rethrown (the test fails with
 * it); a call that throws nothing fails the test too.
 */
export function thrownLoopscopeError(call: () => unknown): LoopscopeError {
  try {
    call();
  } catch (error) {
    if (LoopscopeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a LoopscopeError, but nothing was thrown');
}
