'use client';

/** The per-launch token the server injected into the page (see app/layout.tsx). */
export function apiToken(): string {
  if (typeof document === 'undefined') return '';
  return document.querySelector('meta[name="loopscope-token"]')?.getAttribute('content') ?? '';
}

/** An API failure with the server's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Calls a Loopscope API route with the token and returns its JSON, or throws ApiError with the server's message. */
export async function apiJson<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${apiToken()}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
    cache: 'no-store',
  });
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(response.status, `The server answered ${response.status} with a body that is not JSON.`);
  }
  if (!response.ok) {
    const message = (payload as { error?: { message?: string } }).error?.message ?? `Request failed with status ${response.status}.`;
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

/** The event-stream URL for a filter; EventSource cannot send headers, so the token goes in the query. */
export function eventStreamUrl(filter: { runId?: string; traceIds?: string[] } = {}): string {
  const params = new URLSearchParams({ token: apiToken() });
  if (filter.runId) params.set('runId', filter.runId);
  for (const traceId of filter.traceIds ?? []) params.append('traceId', traceId);
  return `/api/events?${params.toString()}`;
}

/** Where recorded spans come from: captured traces (a session) or a saved file in traces/. */
export type TraceSource = { traceIds: string[] } | { file: string };

/** The API addresses that serve a source's spans as OTLP JSON. */
export function sourceSpanUrls(source: TraceSource): string[] {
  return 'file' in source ? [`/api/saved/${encodeURIComponent(source.file)}`] : source.traceIds.map((traceId) => `/api/traces/${traceId}`);
}
