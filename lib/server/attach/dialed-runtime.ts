/**
 * A genkit runtime that dialed in (issue 36): the app `loopscope start -- <cmd>` runs gets
 * GENKIT_REFLECTION_V2_SERVER (app-environment.ts), so genkit — JS ≥ 1.31, Go ≥ 1.7, Python ≥ 0.6
 * — starts no reflection server at all: it opens a WebSocket to Loopscope's reflection door
 * (reflection-door.ts) and answers JSON-RPC 2.0 there. That is genkit's reflection API v2, as
 * genkit's own CLI speaks it (`RuntimeManagerV2`, @genkit-ai/tools-common 1.42): the runtime sends
 * `register {id, pid, name, genkitVersion, reflectionApiSpecVersion, envs}` first and answers
 * `listActions`, `listValues {type}`, `runAction {key, input, context}`; during a run it notifies
 * `runActionState {requestId, state: {traceId}}` (as soon as the root span starts) and, when asked
 * to stream, `streamChunk`. `configure {telemetryServerUrl}` is a notification to it.
 *
 * Measured with the three test apps (docs/attach-runtimes.md): the answers are those of the HTTP
 * API (`{result, telemetry: {traceId}}`); a failed action is a JSON-RPC error whose `data` is
 * genkit's status `{code, message, details: {stack, traceId}}` — turned back into the HTTP body
 * `{error: data}` here, so everything downstream reads one shape. No runtime sends an Origin header.
 */
import { z } from 'zod';
import { LoopscopeError } from '../../errors';
import { tryParseJsonLimited } from '../../spans/parse-json-limited';
import { RUN_ACTION_TIMEOUT_MS } from './reflection-client';
import type { ReflectionTransport, RunActionAnswer } from './reflection-transport';

/** The part of a WebSocket a dialed runtime writes to (the door feeds it what arrives). */
export interface MessageSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** What a runtime says about itself when it dials in (genkit's `ReflectionRegisterParams`). */
export const DialedRegistrationSchema = z.object({
  id: z.string().min(1).max(200),
  // genkit Python sends its numbers as floats (`19125.0`): still integers once parsed.
  pid: z.number().int().positive(),
  name: z.string().max(200).optional(),
  genkitVersion: z.string().max(100).optional(),
  reflectionApiSpecVersion: z.number().optional(),
});
export type DialedRegistration = z.infer<typeof DialedRegistrationSchema>;

const RpcErrorSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() });
type RpcError = z.infer<typeof RpcErrorSchema>;

const RpcMessageSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).nullable().optional(),
  method: z.string().optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: RpcErrorSchema.optional(),
});

const RunActionStateSchema = z.object({ requestId: z.string(), state: z.object({ traceId: z.string().optional() }).optional() });

/** JSON-RPC's codes for what the runtime sent Loopscope. */
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
/** WebSocket close code 1008: policy violation (a registration Loopscope refuses). */
const CLOSE_POLICY_VIOLATION = 1008;

const LIST_TIMEOUT_MS = 5_000;

interface PendingCall {
  resolve: (reply: { result?: unknown; error?: RpcError }) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Set by `runActionState` while a runAction is under way. */
  traceId?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** genkit's status from a JSON-RPC error: its `data` when it is one (`{code, message, details}`), else made from the error itself. */
function statusOf(error: RpcError): Record<string, unknown> {
  if (isRecord(error.data) && typeof error.data.code === 'number') return error.data;
  // genkit answers an unknown action or bad params with INVALID_PARAMS and no data: google.rpc's INVALID_ARGUMENT (3); anything else INTERNAL (13).
  return { code: error.code === INVALID_PARAMS ? 3 : 13, message: error.message };
}

export class DialedRuntime implements ReflectionTransport {
  readonly kind = 'dialed-in';
  private registered: DialedRegistration | undefined;
  private open = true;
  private nextId = 0;
  private readonly pending = new Map<string, PendingCall>();

  /**
   * @param options.socket the WebSocket the runtime opened (written to; the door feeds `receive` and `disconnected`)
   * @param options.telemetryServerUrl answered to `register`, where genkit then sends its spans unless GENKIT_TELEMETRY_SERVER says otherwise
   * @param options.onRegister called once, when the runtime has registered
   * @param options.onClose called once, when its connection is gone
   */
  constructor(private readonly options: { socket: MessageSocket; telemetryServerUrl: string; onRegister: (runtime: DialedRuntime) => void; onClose: (runtime: DialedRuntime) => void }) {}

  /** Who the runtime said it is, once it registered. */
  get registration(): DialedRegistration | undefined {
    return this.registered;
  }

  get where(): string {
    return `the connection it opened to Loopscope's reflection door (pid ${this.registered?.pid ?? '?'})`;
  }

  /** One text message from the runtime. Anything that is not JSON-RPC 2.0 is dropped. */
  receive(text: string): void {
    const parsed = tryParseJsonLimited(text);
    const message = parsed.ok ? RpcMessageSchema.safeParse(parsed.value) : undefined;
    if (!message?.success) return;
    const { id, method, params, result, error } = message.data;
    if (method !== undefined) return this.request({ id: id ?? undefined, method, params });
    if (id === undefined || id === null) return;
    const call = this.pending.get(String(id));
    if (!call) return;
    this.pending.delete(String(id));
    clearTimeout(call.timer);
    call.resolve({ result, ...(error ? { error } : {}) });
  }

  private request(options: { id?: string | number; method: string; params: unknown }): void {
    const { id, method, params } = options;
    if (method === 'register') return this.register({ id, params });
    if (method === 'runActionState') {
      const state = RunActionStateSchema.safeParse(params);
      const call = state.success ? this.pending.get(state.data.requestId) : undefined;
      if (call && state.success && state.data.state?.traceId) call.traceId = state.data.state.traceId;
      return;
    }
    // streamChunk: Loopscope never asks for a stream; other notifications are not its business.
    if (id !== undefined) this.send({ jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: `Loopscope does not serve ${method}.` } });
  }

  private register(options: { id?: string | number; params: unknown }): void {
    const parsed = DialedRegistrationSchema.safeParse(options.params);
    if (!parsed.success) {
      if (options.id !== undefined) this.send({ jsonrpc: '2.0', id: options.id, error: { code: INVALID_PARAMS, message: `Loopscope cannot read this registration: ${parsed.error.issues[0]?.message ?? 'invalid'}.` } });
      this.options.socket.close(CLOSE_POLICY_VIOLATION, 'invalid registration');
      return;
    }
    if (options.id !== undefined) this.send({ jsonrpc: '2.0', id: options.id, result: { telemetryServerUrl: this.options.telemetryServerUrl } });
    // genkit registers once per connection (again only after a reconnect, on a new one).
    if (this.registered) return;
    this.registered = parsed.data;
    this.options.onRegister(this);
  }

  /** The connection is gone: every call still waiting fails, and the registry forgets the runtime. */
  disconnected(): void {
    if (!this.open) return;
    this.open = false;
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(new LoopscopeError('UNAVAILABLE', "The app's reflection connection closed before it answered; is the app still running?"));
      this.pending.delete(id);
    }
    this.options.onClose(this);
  }

  /** Ends the connection from Loopscope's side (the runtime reconnects when it can). */
  close(): void {
    this.options.socket.close(1001, 'Loopscope is going away');
    this.disconnected();
  }

  private send(message: Record<string, unknown>): void {
    if (this.open) this.options.socket.send(JSON.stringify(message));
  }

  private call(options: { method: string; params?: Record<string, unknown>; timeoutMs: number; what: string }): Promise<{ result?: unknown; error?: RpcError; traceId?: string }> {
    if (!this.open) return Promise.reject(new LoopscopeError('UNAVAILABLE', "The app's reflection connection is closed; is the app still running?"));
    const id = `loopscope-${(this.nextId += 1)}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LoopscopeError('DEADLINE_EXCEEDED', `The app did not finish ${options.what} within ${options.timeoutMs / 1000} s.`));
      }, options.timeoutMs);
      timer.unref();
      const call: PendingCall = { resolve: (reply) => resolve({ ...reply, ...(call.traceId ? { traceId: call.traceId } : {}) }), reject, timer };
      this.pending.set(id, call);
      this.send({ jsonrpc: '2.0', id, method: options.method, ...(options.params ? { params: options.params } : {}) });
    });
  }

  async healthy(): Promise<boolean> {
    return this.open && this.registered !== undefined;
  }

  async notify(telemetryServerUrl: string): Promise<void> {
    this.send({ jsonrpc: '2.0', method: 'configure', params: { telemetryServerUrl } });
  }

  async listActions(): Promise<unknown> {
    const reply = await this.call({ method: 'listActions', timeoutMs: LIST_TIMEOUT_MS, what: 'listing its actions' });
    if (reply.error) throw new Error(`listActions answered ${reply.error.code}: ${reply.error.message}`);
    if (!isRecord(reply.result) || !isRecord(reply.result.actions)) throw new Error('listActions answered without an action map.');
    return reply.result.actions;
  }

  async listValues(type: 'middleware' | 'defaultModel'): Promise<Record<string, unknown>> {
    const reply = await this.call({ method: 'listValues', params: { type }, timeoutMs: LIST_TIMEOUT_MS, what: `listing its ${type} values` });
    if (reply.error) throw new LoopscopeError('UNAVAILABLE', `The app answered listValues with ${reply.error.code}: ${reply.error.message}.`);
    return isRecord(reply.result) && isRecord(reply.result.values) ? reply.result.values : {};
  }

  async runAction(options: { key: string; input: unknown; context?: Record<string, unknown>; timeoutMs?: number }): Promise<RunActionAnswer> {
    const reply = await this.call({
      method: 'runAction',
      params: { key: options.key, input: options.input, ...(options.context ? { context: options.context } : {}) },
      timeoutMs: options.timeoutMs ?? RUN_ACTION_TIMEOUT_MS,
      what: options.key,
    });
    const headerTraceId = reply.traceId;
    if (reply.error) return { body: { error: statusOf(reply.error) }, ...(headerTraceId ? { headerTraceId } : {}) };
    return { body: reply.result, ...(headerTraceId ? { headerTraceId } : {}) };
  }
}
