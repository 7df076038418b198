import { z } from 'zod';
import type { ErrorCode } from '../errors';

const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'FAILED_PRECONDITION',
  'PERMISSION_DENIED',
  'UNAUTHENTICATED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'ABORTED',
  'INTERNAL',
] as const satisfies readonly ErrorCode[];
// Every code of lib/errors.ts is listed: a new code fails to compile here until it is.
const everyCodeListed: Exclude<ErrorCode, (typeof ERROR_CODES)[number]> extends never ? true : false = true;
void everyCodeListed;

/** Every `/api` error answer: `{error: {code, message}}`, the message one sentence naming the problem. */
export const ApiErrorBodySchema = z.object({
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
