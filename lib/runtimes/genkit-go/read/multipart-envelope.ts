/**
 * genkit Go 1.12's multipart envelope, `{output, content, metadata}` (ai.MultipartToolResponse):
 * what a typed tool (genkit/exp) is offered to the model with as its output schema, so what a
 * response part to it must be. genkit Go then hands the whole envelope to the model as the
 * tool's output (measured: resume-verdicts.capture.test.ts).
 */
import { isObject } from '../../../spans/json-value';

const ENVELOPE_KEYS = new Set(['output', 'content', 'metadata']);

/** Already the envelope: an object with `output` and nothing outside `{output, content, metadata}`. */
export function isMultipartEnvelope(output: unknown): boolean {
  return isObject(output) && Object.hasOwn(output, 'output') && Object.keys(output).every((key) => ENVELOPE_KEYS.has(key));
}
