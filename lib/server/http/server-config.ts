import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseOtlpHeaders } from '../ingest/otlp-forwarder';
import { LoopscopeError } from '../../errors';
import { loopscopeInstall } from '../../install/loopscope-install';
import { loopscopePaths } from '../../install/loopscope-paths';

export const DEFAULT_PORT = 4747;

export interface ServerConfig {
  port: number;
  token: string;
  projectDir: string;
  dataDir: string;
  savedDir: string;
  toolsDir: string;
  toolTimeoutMs: number;
  heartbeatTimeoutMs: number;
  runnerMemoryMb: number;
  pauseTimeoutMs: number;
  /** At most this many runner processes at once (a run each; a warm spare included). */
  maxRunners: number;
  /** How long a run waits for a free runner before it fails. */
  runnerWaitMs: number;
  /** A paused run with no page watching it for this long is stopped. */
  abandonedPauseMs: number;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/**
 * The per-launch token. The start script sets LOOPSCOPE_TOKEN; when the server is started
 * some other way, one is made here and put in the environment so that every bundle of the
 * server (proxy, route handlers, instrumentation) sees the same one.
 */
export function serverToken(): string {
  if (!process.env.LOOPSCOPE_TOKEN) process.env.LOOPSCOPE_TOKEN = randomBytes(24).toString('base64url');
  return process.env.LOOPSCOPE_TOKEN;
}

export function serverPort(): number {
  return positiveNumber(process.env.PORT, DEFAULT_PORT);
}

/**
 * Server settings from the environment (docs/settings.md). The server runs in Loopscope's own
 * folder (a clone, or the installed package: lib/cli/start-command.ts starts it there); its
 * folders come from lib/install/loopscope-paths.ts, relative settings from the folder
 * `loopscope start` was typed in (LOOPSCOPE_APP_CWD).
 */
export function readServerConfig(): ServerConfig {
  const projectDir = process.cwd();
  const workDir = path.resolve(/* turbopackIgnore: true */ process.env.LOOPSCOPE_APP_CWD ?? projectDir);
  const paths = loopscopePaths({ install: loopscopeInstall(projectDir), workDir, environment: process.env });
  return {
    port: serverPort(),
    token: serverToken(),
    projectDir,
    ...paths,
    toolTimeoutMs: positiveNumber(process.env.LOOPSCOPE_TOOL_TIMEOUT_MS, 30_000),
    heartbeatTimeoutMs: positiveNumber(process.env.LOOPSCOPE_HEARTBEAT_TIMEOUT_MS, 5_000),
    runnerMemoryMb: positiveNumber(process.env.LOOPSCOPE_RUNNER_MEMORY_MB, 1_024),
    pauseTimeoutMs: positiveNumber(process.env.LOOPSCOPE_PAUSE_TIMEOUT_MS, 15 * 60_000),
    // Two cores: four runners (~the memory of four Node processes with genkit loaded) run
    // four tool loops side by side; more would only queue on the CPU.
    maxRunners: Math.max(1, Math.floor(positiveNumber(process.env.LOOPSCOPE_MAX_RUNNERS, 4))),
    runnerWaitMs: positiveNumber(process.env.LOOPSCOPE_RUNNER_WAIT_MS, 60_000),
    abandonedPauseMs: positiveNumber(process.env.LOOPSCOPE_ABANDONED_PAUSE_MS, 60_000),
  };
}

/** How long a client may take to send a request, enforced by the HTTP server (scripts/start.js). */
export interface HttpTimeouts {
  /** Until the request's headers are complete (a client sending them byte by byte is cut). */
  headersTimeoutMs: number;
  /** Until the whole request, body included, is received (a lying Content-Length is cut). Responses are not limited: event streams stay open. */
  requestTimeoutMs: number;
}

/** The HTTP timeouts from the environment: LOOPSCOPE_HEADERS_TIMEOUT_MS (10 s), LOOPSCOPE_REQUEST_TIMEOUT_MS (60 s). */
export function readHttpTimeouts(): HttpTimeouts {
  const requestTimeoutMs = positiveNumber(process.env.LOOPSCOPE_REQUEST_TIMEOUT_MS, 60_000);
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeoutMs = Math.min(positiveNumber(process.env.LOOPSCOPE_HEADERS_TIMEOUT_MS, 10_000), requestTimeoutMs);
  return { headersTimeoutMs, requestTimeoutMs };
}

/** Where every received span is forwarded (`LOOPSCOPE_FORWARD_OTLP`, headers from `LOOPSCOPE_FORWARD_OTLP_HEADERS`), or undefined. */
export interface ForwardingConfig {
  url: string;
  headers: Record<string, string>;
}

/**
 * Reads LOOPSCOPE_FORWARD_OTLP: an http(s) OTLP/HTTP traces URL (`…/v1/traces`, as an
 * exporter's OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), never this server's own receiver (a loop).
 * @throws LoopscopeError INVALID_ARGUMENT naming what is wrong with it.
 */
export function readForwarding(env: Readonly<Record<string, string | undefined>>, ownPort: number): ForwardingConfig | undefined {
  const raw = env.LOOPSCOPE_FORWARD_OTLP?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LoopscopeError('INVALID_ARGUMENT', `LOOPSCOPE_FORWARD_OTLP="${raw}" is not a URL: give the upstream's OTLP/HTTP traces URL, e.g. http://127.0.0.1:4318/v1/traces.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new LoopscopeError('INVALID_ARGUMENT', `LOOPSCOPE_FORWARD_OTLP must be an http:// or https:// URL (OTLP/HTTP), not ${url.protocol}`);
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(url.hostname);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (loopback && port === ownPort) throw new LoopscopeError('INVALID_ARGUMENT', `LOOPSCOPE_FORWARD_OTLP points at this server (port ${ownPort}): every span would come back to it forever.`);
  return { url: url.toString(), headers: parseOtlpHeaders(env.LOOPSCOPE_FORWARD_OTLP_HEADERS) };
}
