/**
 * The runtime file a genkit app writes in dev mode (`GENKIT_ENV=dev`), read the way genkit's own
 * CLI reads it (genkit-tools common `RuntimeManager`: a JSON file per runtime in
 * `<project root>/.genkit/runtimes/`, with `id`, `pid`, `reflectionServerUrl` and `timestamp`).
 * genkit JS 1.42 writes `{id: GENKIT_RUNTIME_ID || "<pid>-<port>", pid, name,
 * reflectionServerUrl: "http://localhost:<port>", timestamp, genkitVersion: "nodejs/1.42.0",
 * reflectionApiSpecVersion: 1}` (`@genkit-ai/core` reflection.js `writeRuntimeFile`); genkit Go
 * and Python write the same fields with their own `genkitVersion` prefix.
 */
import { z } from 'zod';
import type { AttachedRuntimeKind } from '../../contract/runtimes';

export const RuntimeFileSchema = z.object({
  id: z.string().min(1),
  pid: z.number().int(),
  name: z.string().optional(),
  reflectionServerUrl: z.string(),
  timestamp: z.string(),
  genkitVersion: z.string().optional(),
  reflectionApiSpecVersion: z.number().optional(),
});
export type RuntimeFile = z.infer<typeof RuntimeFileSchema>;

/** The reflection API version this reader speaks (genkit-tools' GENKIT_REFLECTION_API_SPEC_VERSION). */
export const REFLECTION_API_SPEC_VERSION = 1;

/** The markers genkit's CLI looks for, walking up from the working directory, to find a project root (tools-common `findProjectRoot`). */
export const PROJECT_MARKERS = ['package.json', 'go.mod', 'pyproject.toml', 'requirements.txt'];

/** Which genkit runtime wrote the file: `nodejs/…` (JS), `go/…`, `python/…` or `py/…`; a file without a version is genkit JS's (older JS releases wrote none). */
export function runtimeKindOf(genkitVersion: string | undefined): AttachedRuntimeKind | undefined {
  const prefix = (genkitVersion ?? 'nodejs/').split('/')[0].toLowerCase();
  if (prefix === 'nodejs' || prefix === 'node' || prefix === 'js') return 'genkit-js';
  if (prefix === 'go') return 'genkit-go';
  if (prefix === 'python' || prefix === 'py') return 'genkit-python';
  return undefined;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The reflection server's base URL, only when it is plain http on a loopback address: a runtime
 * file is written by any process that can write the folder, and Loopscope must never be made to
 * send requests (with the developer's inputs) to another machine.
 * @returns the URL without a trailing slash, or a sentence saying why it is refused.
 */
export function loopbackReflectionUrl(text: string): { ok: true; url: string } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `"${text}" is not a URL` };
  }
  if (url.protocol !== 'http:') return { ok: false, problem: `${url.protocol} is not http:` };
  if (!LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) return { ok: false, problem: `${url.hostname} is not a loopback address` };
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return { ok: false, problem: 'a reflection URL is only scheme, host and port' };
  // localhost may resolve to ::1 first while genkit JS binds 127.0.0.1 (GENKIT_REFLECTION_HOST's default).
  const host = url.hostname.toLowerCase() === 'localhost' ? '127.0.0.1' : url.hostname;
  return { ok: true, url: `http://${host}:${url.port || '80'}` };
}
