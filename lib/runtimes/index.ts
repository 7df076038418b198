/**
 * The dialects Loopscope reads, in the order they are asked to claim a span: adding a runtime
 * is one folder (lib/runtimes/<runtime>/) and one line here.
 */
import type { Span } from '../spans/span';
import { aiSdk } from './ai-sdk/read';
import { genkitJs } from './genkit-js/read';
import { genkitGo } from './genkit-go/read';
import type { RuntimeDialect } from '../loop/runtime-dialect';
import { PLAIN_RUNTIME_VIEW, type RuntimeView } from '../loop/runtime-view';
import { googleAdk } from './google-adk/read';
import { langGraph } from './langgraph/read';
import { openAiAgents } from './openai-agents/read';
import { pydanticAi } from './pydantic-ai/read';
import { strands } from './strands/read';
import { mastra } from './mastra/read';
import { otelGenAi } from './otel-genai/read';
import type { ClaimedBy } from '../loop/runtime-dialect';
import { LoopscopeError } from '../errors';

// genkit Go before genkit JS: both write genkit's attributes; Go's spans also name their language.
// The frameworks that follow the OTel GenAI conventions before the generic reader of those
// conventions, which takes any GenAI span no framework claimed (apps of no known framework).
export const DIALECTS: readonly RuntimeDialect[] = [genkitGo, genkitJs, aiSdk, googleAdk, langGraph, pydanticAi, openAiAgents, strands, mastra, otelGenAi];

/** Whether a span may be claimed by a dialect with this `claimedBy`: its scope, one of its attributes or its name is listed. */
function mayClaimWith(claimedBy: ClaimedBy): (span: Span) => boolean {
  const scopes = new Set(claimedBy.scopes ?? []);
  const attributes = claimedBy.attributes ?? [];
  const names = new Set(claimedBy.spanNames ?? []);
  return (span) => scopes.has(span.scope.name) || names.has(span.name) || attributes.some((key) => span.attributes[key] !== undefined);
}

const prefilters = new WeakMap<RuntimeDialect, (span: Span) => boolean>();

/** The cheap test of `claimedBy` (always true for a dialect without one), made once per dialect. */
function mayClaim(dialect: RuntimeDialect, span: Span): boolean {
  if (!dialect.claimedBy) return true;
  let test = prefilters.get(dialect);
  if (!test) prefilters.set(dialect, (test = mayClaimWith(dialect.claimedBy)));
  return test(span);
}

/** The dialect that claims a span (the first that does), or undefined when none knows it. */
export function dialectOf(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): RuntimeDialect | undefined {
  for (const dialect of dialects) if (mayClaim(dialect, span) && dialect.claims(span)) return dialect;
  return undefined;
}

/** A dialect's name for people (`genkit JS`, `Vercel AI SDK`), or the id itself when none has it. */
export function dialectTitle(id: string, dialects: readonly RuntimeDialect[] = DIALECTS): string {
  return dialects.find((dialect) => dialect.id === id)?.title ?? id;
}

/**
 * The registered dialect of a runtime, by its id: what the answer and replay paths ask before they
 * act on a call a dialect read (its `runtime`, a resume context's `dialect`).
 * @throws LoopscopeError NOT_FOUND naming the id and the registered ones, when no dialect has it
 *   (a runtime that is not registered — a test's runtime given without `withRuntime`, lib/runtimes/with-runtime.ts).
 */
export function registeredDialect(id: string, dialects: readonly RuntimeDialect[] = DIALECTS): RuntimeDialect {
  const dialect = dialects.find((candidate) => candidate.id === id);
  if (!dialect) throw new LoopscopeError('NOT_FOUND', `Unknown runtime "${id}": no registered runtime has that id (registered: ${dialects.map((candidate) => candidate.id).join(', ')}).`);
  return dialect;
}

/** What the pages say and offer for a runtime's runs (its dialect's view, or plain words for one Loopscope does not know). */
export function runtimeView(id: string | undefined): RuntimeView {
  return DIALECTS.find((dialect) => dialect.id === id)?.view ?? PLAIN_RUNTIME_VIEW;
}
