'use client';

import { useCallback, useMemo, useState } from 'react';
import { mergeSpans } from '@/lib/spans/merge-spans';
import type { Span } from '@/lib/spans/span';

/** The spans a page shows, merged as they arrive (an ended span replaces its open version). */
export function useSpanCollection(initial: Span[] = []) {
  const [spans, setSpans] = useState<Span[]>(initial);
  const add = useCallback((incoming: Span[]) => setSpans((existing) => mergeSpans(existing, incoming)), []);
  const replace = useCallback((next: Span[]) => setSpans(next), []);
  return useMemo(() => ({ spans, add, replace }), [spans, add, replace]);
}
