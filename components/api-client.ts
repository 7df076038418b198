'use client';

import { ApiErrorBodySchema } from '@/lib/contract/api-error';
import type { TraceSource } from '@/lib/contract/trace-source';

/**
 * The page authenticates with its HttpOnly session cookie (session-gate.tsx gets it once in
 * exchange for the token): the browser sends it on every same-origin request, and no script
 * on the page can read it. The page never holds the token.
 */

/** Fired on `window` when the server says the session is gone (401): the session gate asks for the token again. */
export const SESSION_LOST_EVENT = 'loopscope:session-lost';

/** Tells the session gate that a request came back 401. */
export function reportSessionLost(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(SESSION_LOST_EVENT));
}

/** An API failure with the server's own message and, when it sent one, its error code (`ALREADY_EXISTS`, …). */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  constructor(options: { status: number; message: string; code?: string }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
  }
}

/** Calls a Loopscope API route (with the session cookie) and returns its JSON, or throws ApiError with the server's message. */
export async function apiJson<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: init.body !== undefined ? { 'content-type': 'application/json' } : {},
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
    cache: 'no-store',
  });
  if (response.status === 401) reportSessionLost();
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError({ status: response.status, message: `The server answered ${response.status} with a body that is not JSON.` });
  }
  if (!response.ok) {
    const body = ApiErrorBodySchema.safeParse(payload);
    if (body.success) throw new ApiError({ status: response.status, message: body.data.error.message, code: body.data.error.code });
    throw new ApiError({ status: response.status, message: `Request failed with status ${response.status}.` });
  }
  return payload as T;
}

/** The event-stream URL for a filter; EventSource sends the session cookie, so no token goes in the URL. */
export function eventStreamUrl(filter: { runId?: string; traceIds?: string[] } = {}): string {
  const params = new URLSearchParams();
  if (filter.runId) params.set('runId', filter.runId);
  for (const traceId of filter.traceIds ?? []) params.append('traceId', traceId);
  return `/api/events?${params.toString()}`;
}

/** The API addresses that serve a source's spans as OTLP JSON (for the span tree; graphs come built). */
export function sourceSpanUrls(source: TraceSource): string[] {
  return 'file' in source ? [`/api/saved/${encodeURIComponent(source.file)}`] : source.traceIds.map((traceId) => `/api/traces/${traceId}`);
}

/** Where the detail view of one span is served: a saved file's own route, else the captured trace's (live runs included). */
export function spanViewUrl(options: { traceId: string; spanId: string; savedFile?: string }): string {
  return options.savedFile
    ? `/api/saved/${encodeURIComponent(options.savedFile)}/spans/${options.traceId}/${options.spanId}`
    : `/api/traces/${options.traceId}/spans/${options.spanId}`;
}
