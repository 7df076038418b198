/** The views of a trace; `?tab=` in the URL names one. Shared by the server pages and the workspace. */
export type Tab = 'graph' | 'spans' | 'timeline';

/** The tab a `?tab=` value names (the graph for anything else). */
export function tabFromUrl(value: string | undefined): Tab {
  return value === 'spans' || value === 'timeline' ? value : 'graph';
}
