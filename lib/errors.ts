/**
 * One error base for everything Loopscope reports, with a closed set of codes (genkit's own
 * status names) mapped to HTTP statuses in one table.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'PERMISSION_DENIED'
  | 'UNAUTHENTICATED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'
  | 'ABORTED'
  | 'INTERNAL';

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  FAILED_PRECONDITION: 409,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  ABORTED: 409,
  INTERNAL: 500,
};

const MARKER = Symbol.for('loopscope.error');

export class LoopscopeError extends Error {
  readonly code: ErrorCode;
  readonly [MARKER] = true;

  // Error's own (message, options) with the code in front: `new LoopscopeError(code, message,
  // { cause })` reads as `new Error(message, { cause })` does, and the options hold only the cause.
  // eslint-disable-next-line @typescript-eslint/max-params -- Error's (message, options) shape, see above
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LoopscopeError';
    this.code = code;
  }

  /** Marker check instead of `instanceof`: duplicated module copies (Next bundles, tsx) break `instanceof`. */
  static isInstance(value: unknown): value is LoopscopeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}

/** The message of anything thrown, without a stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
