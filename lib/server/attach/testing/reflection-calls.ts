import { z } from 'zod';

/**
 * The calls a dev tool makes to a genkit runtime's reflection server (genkit's reflection API,
 * spec version 1), as genkit JS, Go 1.12 and Python 0.12 answer them. Thin on purpose: each
 * call returns what came back, so a test can assert the runtime's own shapes.
 */
export const ActionDescriptorSchema = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
  outputSchema: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ActionDescriptor = z.infer<typeof ActionDescriptorSchema>;

/** A failed run as genkit writes it: `code` is a canonical status number (3 INVALID_ARGUMENT, 5 NOT_FOUND, 13 INTERNAL), not an HTTP one. */
export const ReflectionErrorSchema = z.object({
  code: z.number().optional(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ReflectionError = z.infer<typeof ReflectionErrorSchema>;

const RunActionBodySchema = z.union([
  z.object({ result: z.unknown(), telemetry: z.object({ traceId: z.string().optional(), spanId: z.string().optional() }).optional() }),
  z.object({ error: z.union([ReflectionErrorSchema, z.string()]) }),
]);

export interface RunActionReply {
  /** The HTTP status (genkit Go and Python answer 200 for most failed runs too; read `error`). */
  status: number;
  /** `X-Genkit-Trace-Id`, sent before the body once the action's root span starts. */
  traceIdHeader?: string;
  result?: unknown;
  /** `telemetry.traceId` of the body. */
  traceId?: string;
  error?: ReflectionError;
  /** With `stream: true`: the chunks before the final line, parsed. */
  chunks: unknown[];
  /** The body as text, for what a schema does not cover. */
  raw: string;
}

async function fetchJson(options: { url: string; init?: RequestInit; timeoutMs?: number }): Promise<Response> {
  return fetch(options.url, { ...options.init, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
}

/** `GET /api/__health` (with `?id=` when given): true on 200. */
export async function checkHealth(options: { url: string; id?: string }): Promise<{ ok: boolean; status: number; body: string }> {
  const query = options.id === undefined ? '' : `?id=${encodeURIComponent(options.id)}`;
  const response = await fetchJson({ url: `${options.url}/api/__health${query}`, timeoutMs: 5_000 });
  return { ok: response.ok, status: response.status, body: await response.text() };
}

/** `GET /api/actions`: the runtime's actions by key (`/flow/planTrip`, `/tool/getWeather`, `/tool.v2/…` in Go…). */
export async function listActions(options: { url: string }): Promise<Record<string, ActionDescriptor>> {
  const response = await fetchJson({ url: `${options.url}/api/actions` });
  if (!response.ok) throw new Error(`GET /api/actions answered ${response.status}: ${await response.text()}`);
  return z.record(z.string(), ActionDescriptorSchema).parse(await response.json());
}

/**
 * `POST /api/runAction {key, input}` (`?stream=true` for chunks). The body is one JSON value,
 * or with streaming one chunk per line followed by the final value on the last line.
 */
export async function runAction(options: { url: string; key: string; input?: unknown; stream?: boolean; timeoutMs?: number }): Promise<RunActionReply> {
  const response = await fetchJson({
    url: `${options.url}/api/runAction${options.stream ? '?stream=true' : ''}`,
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: options.key, input: options.input }) },
    timeoutMs: options.timeoutMs,
  });
  const raw = await response.text();
  const lines = options.stream ? raw.split('\n').filter((line) => line.trim() !== '') : [raw];
  const finalLine = lines.pop() ?? '';
  const reply: RunActionReply = { status: response.status, traceIdHeader: response.headers.get('x-genkit-trace-id') ?? undefined, chunks: lines.map((line) => JSON.parse(line) as unknown), raw };
  let parsed: z.infer<typeof RunActionBodySchema> | undefined;
  try {
    parsed = RunActionBodySchema.parse(JSON.parse(finalLine));
  } catch (cause) {
    throw new Error(`POST /api/runAction ${options.key} answered ${response.status} with a body that is no run result: ${raw.slice(0, 300)}`, { cause });
  }
  if ('error' in parsed) {
    reply.error = typeof parsed.error === 'string' ? { message: parsed.error } : parsed.error;
    const traceId = reply.error.details?.traceId;
    if (typeof traceId === 'string') reply.traceId = traceId;
  } else {
    reply.result = parsed.result;
    reply.traceId = parsed.telemetry?.traceId;
  }
  return reply;
}
