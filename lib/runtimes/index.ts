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
import { dialectDispatch, type DialectDispatch } from '../loop/dialect-dispatch';
import { LoopscopeError } from '../errors';

// genkit Go before genkit JS: both write genkit's attributes; Go's spans also name their language.
// The frameworks that follow the OTel GenAI conventions before the generic reader of those
// conventions, which takes any GenAI span no framework claimed (apps of no known framework).
export const DIALECTS: readonly RuntimeDialect[] = [genkitGo, genkitJs, aiSdk, googleAdk, langGraph, pydanticAi, openAiAgents, strands, mastra, otelGenAi];

const dispatches = new WeakMap<readonly RuntimeDialect[], DialectDispatch>();

/**
 * The dialect that claims a span (the first that does), or undefined when none knows it: one
 * dispatch per dialect list (lib/loop/dialect-dispatch.ts), made on first use. A build claims
 * each span once, through its index (`SpanIndex.dialectOf`).
 */
export function dialectOf(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): RuntimeDialect | undefined {
  let dispatch = dispatches.get(dialects);
  if (!dispatch) dispatches.set(dialects, (dispatch = dialectDispatch(dialects)));
  return dispatch(span);
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
