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

// genkit Go before genkit JS: both write genkit's attributes; Go's spans also name their language.
export const DIALECTS: readonly RuntimeDialect[] = [genkitGo, genkitJs, aiSdk];

/** The dialect that claims a span (the first that does), or undefined when none knows it. */
export function dialectOf(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): RuntimeDialect | undefined {
  for (const dialect of dialects) if (dialect.claims(span)) return dialect;
  return undefined;
}

/** A dialect's name for people (`genkit JS`, `Vercel AI SDK`), or the id itself when none has it. */
export function dialectTitle(id: string): string {
  return DIALECTS.find((dialect) => dialect.id === id)?.title ?? id;
}

/** What the pages say and offer for a runtime's runs (its dialect's view, or plain words for one Loopscope does not know). */
export function runtimeView(id: string | undefined): RuntimeView {
  return DIALECTS.find((dialect) => dialect.id === id)?.view ?? PLAIN_RUNTIME_VIEW;
}
