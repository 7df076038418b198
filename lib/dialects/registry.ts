/**
 * The dialects Loopscope reads, in the order they are asked to claim a span: adding a runtime
 * is one folder (lib/dialects/<runtime>/) and one line here.
 */
import type { Span } from '../trace/span';
import { aiSdk } from './ai-sdk';
import { dialectDispatch } from './dialect-dispatch';
import { genkitJs } from './genkit-js';
import { genkitGo } from './genkit-go';
import type { RuntimeDialect } from './runtime-dialect';

// genkit Go before genkit JS: both write genkit's attributes; Go's spans also name their language.
export const DIALECTS: readonly RuntimeDialect[] = [genkitGo, genkitJs, aiSdk];

const DISPATCH = dialectDispatch(DIALECTS);

/**
 * The dialect that claims a span (the first that does), or undefined when none knows it. A
 * build claims each span once, through its index (`SpanIndex.dialectOf`).
 */
export function dialectOf(span: Span, dialects: readonly RuntimeDialect[] = DIALECTS): RuntimeDialect | undefined {
  return (dialects === DIALECTS ? DISPATCH : dialectDispatch(dialects))(span);
}

/** A dialect's name for people (`genkit JS`, `Vercel AI SDK`), or the id itself when none has it. */
export function dialectTitle(id: string): string {
  return DIALECTS.find((dialect) => dialect.id === id)?.title ?? id;
}
