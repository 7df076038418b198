/**
 * genkit's resume, read once: the `resume` option a generate was called with (respond and
 * restart parts), and genkit's rule for each request of the interrupted model message
 * (docs/interrupt-model.md §3) — used by the graph (which answer each request got), the resume
 * checks (what genkit will refuse) and the replay (which history a resume continues).
 */
import { isObject } from '../../../spans/json-value';

/** A request of the interrupted model message, by the names genkit matches answers with. */
export interface RequestName {
  name: string;
  ref?: string;
}

/** The parts of a generate's `resume` option, as recorded. */
export interface ResumeInput {
  /** `{toolResponse: {name, ref, output}, metadata: {interruptResponse: true}}` parts. */
  respond: Record<string, unknown>[];
  /** `{toolRequest: {name, ref, input}, metadata: {resumed, replacedInput?}}` parts. */
  restart: Record<string, unknown>[];
}

/** The `resume` option of a generate's recorded input, or undefined when the call was no resume. */
export function readResumeInput(input: unknown): ResumeInput | undefined {
  if (!isObject(input) || input.resume === undefined) return undefined;
  const resume = isObject(input.resume) ? input.resume : {};
  const parts = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(isObject);
  return { respond: parts(resume.respond), restart: parts(resume.restart) };
}

/** The name and ref a respond or restart part answers. */
export function answeredRequest(part: Record<string, unknown>): RequestName | undefined {
  const inner = isObject(part.toolResponse) ? part.toolResponse : isObject(part.toolRequest) ? part.toolRequest : undefined;
  if (!inner || typeof inner.name !== 'string') return undefined;
  return { name: inner.name, ref: typeof inner.ref === 'string' ? inner.ref : undefined };
}

/** Same request as genkit matches them: name and ref (no ref equals no ref). */
export function sameRequestName(a: RequestName, b: RequestName): boolean {
  return a.name === b.name && (a.ref ?? '') === (b.ref ?? '');
}

export type RequestResolution<Respond, Restart> =
  | { kind: 'pending' }
  | { kind: 'respond'; answer: Respond }
  | { kind: 'restart'; answer: Restart }
  | { kind: 'unresolved' };

/**
 * genkit's rule for one request of the interrupted message, first that fits: a parked
 * `pendingOutput` is reused; else a respond part with the same name and ref answers it; else a
 * restart part runs the tool again; else genkit refuses the resume (INVALID_ARGUMENT:
 * "Unresolved tool request …").
 */
export function resolveRequest<Respond, Restart>(options: {
  request: RequestName;
  /** The request carries a `pendingOutput` (a sibling that finished in the interrupted turn). */
  pending: boolean;
  respond: readonly Respond[];
  restart: readonly Restart[];
  nameOf: (answer: Respond | Restart) => RequestName | undefined;
}): RequestResolution<Respond, Restart> {
  if (options.pending) return { kind: 'pending' };
  const matches = (answer: Respond | Restart) => {
    const name = options.nameOf(answer);
    return name !== undefined && sameRequestName(name, options.request);
  };
  const respond = options.respond.find(matches);
  if (respond !== undefined) return { kind: 'respond', answer: respond };
  const restart = options.restart.find(matches);
  if (restart !== undefined) return { kind: 'restart', answer: restart };
  return { kind: 'unresolved' };
}
