/**
 * Loopscope's genkit Go runner (go/runner/, with the tools of tools/go/) as a child process:
 * built with the real `go` toolchain, then spoken to in JSON lines — one command per line on
 * stdin, one result per line on stdout (go/runner/main.go). Its spans leave through its own
 * OTLP/HTTP exporter; a result is sent only once its call's spans are exported.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { promisify } from 'node:util';
import { GoRunnerStepLineSchema, type GoRunnerStepLine } from '../../../contract/go-runner-lines';
import type { PauseDecision } from '../../../contract/pause';
import type { RunMode } from '../../../contract/run-mode';
import { LoopscopeError } from '../../../errors';

/** Where the Go sources are, and where the binary is built. */
export interface GoRunnerPaths {
  projectDir: string;
  /** The built binary (default: <projectDir>/.loopscope/go-runner). */
  binary?: string;
}

const binaryOf = (paths: GoRunnerPaths) => paths.binary ?? path.join(paths.projectDir, '.loopscope', 'go-runner');

/**
 * `go build` of go/runner (tools/go/ compiled in). A compile error is thrown with the
 * compiler's `file:line: message` lines, relative to the project.
 */
export async function buildGoRunner(paths: GoRunnerPaths): Promise<string> {
  const binary = binaryOf(paths);
  const runnerDir = path.join(paths.projectDir, 'go', 'runner');
  try {
    await promisify(execFile)('go', ['build', '-o', binary, '.'], { cwd: runnerDir, timeout: 600_000, maxBuffer: 8 << 20 });
  } catch (error) {
    // The compiler names files relative to go/runner: `../../tools/go/bank.go:12:3: …`.
    const lines = String((error as { stderr?: unknown }).stderr ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => (line.startsWith('../../') ? line.slice('../../'.length) : line.startsWith('./') ? `go/runner/${line.slice(2)}` : line));
    throw new LoopscopeError('FAILED_PRECONDITION', `The genkit Go runner does not compile:\n${lines.join('\n') || (error as Error).message}`);
  }
  return binary;
}

export interface GoGenerateCommand {
  scenario: string;
  /** The history to continue (a resume), as genkit messages. */
  messages?: unknown[];
  resume?: { respond?: unknown[]; restart?: unknown[] };
  /** For a resume: the interrupted generate it answers, recorded as an OTel link on its root span. */
  answers?: { traceId: string; spanId: string };
  /** Step-by-step: the run the call belongs to and its mode (go/runner/step.go); without a mode no step hooks are installed. */
  runId?: string;
  mode?: RunMode;
}

/** A decision or mode change for a stepped call, or Stop for any call of a run (the JS runner's step commands). */
export type GoStepCommand =
  | { type: 'pause-decision'; runId: string; pauseId: string; decision: PauseDecision }
  | { type: 'set-mode'; runId: string; mode: RunMode }
  | { type: 'stop'; runId: string };

export interface GoStepCommandResult {
  ok: boolean;
  problems?: string[];
  message?: string;
}

export interface GoGenerateResult {
  /** Every trace the call recorded, in start order (a restarted tool runs in a trace of its own, before the generate's). */
  traceIds?: string[];
  /** The generate's trace (the last one). */
  traceId?: string;
  /** The generate's root span (a resume of it links there). */
  rootSpan?: { traceId: string; spanId: string };
  outcome?: { finishReason: string; text: string; interrupts: { name: string; ref?: string; input?: unknown; metadata?: unknown }[]; messages: unknown[] };
  failure?: { message: string; status?: string };
  /** Stopped while a tool ran: answered without it, its goroutine left running in the runner (go/runner/stop.go). */
  codeLeftRunning?: boolean;
}

/** A Go tool as the runner describes it: for a typed interruptible tool, the Go type its resume data is converted to, as a JSON schema. */
export interface GoToolInfo {
  name: string;
  /** Its description and schemas as genkit Go derived them (the step panel's editors start from them). */
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  resumeType?: string;
  resumeSchema?: unknown;
}

/** One replayed generate (go/runner/replay.go): the recorded options with the history to send, the replay instance's models and tools. */
export interface GoReplayStepCommand {
  options: Record<string, unknown>;
  models: string[];
  tools: { name: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; metadata?: unknown }[];
  liveTools?: boolean;
  answers?: { traceId: string; spanId: string };
  replays?: { traceId: string; spanId: string };
}

/** A model request or tool call of a replayed generate, asked of Loopscope's replay session. */
export type GoReplayCall = { callId: string; span?: { traceId: string; spanId: string } } & (
  | { call: 'model'; request: Record<string, unknown> }
  | { call: 'tool'; name: string; input: unknown; live?: boolean }
  | { call: 'tool-outcome'; of: string; name: string; outcome: import('../../../loop/recorded-calls').RecordedToolOutcome }
);

/** What the replay session answers: a response, an outcome to play back, run the live tool, or an error to raise (a stop, a recorded failure). */
export interface GoReplayAnswer {
  response?: Record<string, unknown>;
  outcome?: import('../../../loop/recorded-calls').RecordedToolOutcome;
  run?: boolean;
  error?: string;
}

export type GoReplayStepResult = GoGenerateResult & { message?: unknown };

export interface GoRunner {
  pid: number;
  tools: GoToolInfo[];
  /** True once the process has exited (crashed, or stopped). */
  readonly exited: boolean;
  generate(command: GoGenerateCommand): Promise<GoGenerateResult>;
  /** A health check: true when the runner answers a ping within `timeoutMs`; one that does not is killed. */
  ping(timeoutMs: number): Promise<boolean>;
  /** Sends a step command to a stepped call in progress and waits for the runner's answer. */
  command(command: GoStepCommand): Promise<GoStepCommandResult>;
  /** One replayed generate (go/runner/replay.go); `onCall` answers each model request and tool call it makes. */
  replayStep(command: GoReplayStepCommand, onCall: (call: GoReplayCall) => GoReplayAnswer): Promise<GoReplayStepResult>;
  stop(): Promise<void>;
}

/** Starts the built runner and waits for its `ready` line. */
export async function startGoRunner(options: {
  binary: string;
  projectDir: string;
  otlpEndpoint: string;
  token?: string;
  scenariosDir?: string;
  /** A call that has not answered by then is hung: the runner is killed and the call fails naming the limit (default 120 s). */
  callTimeoutMs?: number;
  /** A stepped call's pauses and span starts, as they happen. */
  onStepLine?: (line: Exclude<GoRunnerStepLine, { type: 'command-result' }>) => void;
}): Promise<GoRunner> {
  const child: ChildProcessWithoutNullStreams = spawn(options.binary, [], {
    cwd: options.projectDir,
    env: {
      ...process.env,
      LOOPSCOPE_OTLP_ENDPOINT: options.otlpEndpoint,
      ...(options.token ? { LOOPSCOPE_TOKEN: options.token } : {}),
      ...(options.scenariosDir ? { LOOPSCOPE_GO_SCENARIOS_DIR: options.scenariosDir } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const waiting = new Map<string, (result: GoGenerateResult) => void>();
  const pongs = new Map<string, () => void>();
  const commands = new Map<string, (result: GoStepCommandResult) => void>();
  // A paused call waits for a person, not for the runner: its time limit stops while it is paused.
  const pausedCalls = new Map<string, { pauses: number; hold: () => void; release: () => void }>();
  const replayCalls = new Map<string, (call: GoReplayCall) => GoReplayAnswer>();
  let ready: (value: { pid: number; tools: GoToolInfo[] }) => void;
  let failed: (error: Error) => void;
  const started = new Promise<{ pid: number; tools: GoToolInfo[] }>((resolve, reject) => ((ready = resolve), (failed = reject)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: { type?: string; requestId?: string; pid?: number; toolInfo?: GoToolInfo[] } & GoGenerateResult;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.type === 'ready') ready({ pid: message.pid ?? child.pid ?? 0, tools: message.toolInfo ?? [] });
    else if (message.type === 'pong' && message.requestId) pongs.get(message.requestId)?.();
    else if (message.type === 'paused' || message.type === 'pause-ended' || message.type === 'span-start' || message.type === 'command-result') onStepLine(message);
    else if (message.type === 'result' && message.requestId) {
      waiting.get(message.requestId)?.(message);
      waiting.delete(message.requestId);
    } else if (message.type === 'replay-call' && message.requestId) {
      const call = message as unknown as GoReplayCall;
      const answer = replayCalls.get(message.requestId)?.(call) ?? { error: 'The replay step this call belongs to is over.' };
      child.stdin.write(`${JSON.stringify({ type: 'replay-answer', callId: call.callId, ...answer })}\n`);
    }
  });
  const onStepLine = (raw: unknown) => {
    const parsed = GoRunnerStepLineSchema.safeParse(raw);
    if (!parsed.success) return;
    const line = parsed.data;
    if (line.type === 'command-result') {
      commands.get(line.requestId)?.({ ok: line.ok, problems: line.problems, message: line.message });
      commands.delete(line.requestId);
      return;
    }
    if (line.type === 'paused' || line.type === 'pause-ended') {
      const call = pausedCalls.get(line.requestId);
      if (call) {
        call.pauses += line.type === 'paused' ? 1 : -1;
        if (line.type === 'paused' && call.pauses === 1) call.hold();
        if (call.pauses === 0) call.release();
      }
    }
    options.onStepLine?.(line);
  };
  child.on('exit', (code, signal) => {
    const why = `The genkit Go runner exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}.`;
    failed(new LoopscopeError('UNAVAILABLE', why));
    for (const resolve of waiting.values()) resolve({ failure: { message: why, status: 'UNAVAILABLE' } });
    waiting.clear();
    for (const resolve of commands.values()) resolve({ ok: false, message: why });
    commands.clear();
  });
  const { pid, tools } = await started;
  let next = 0;
  /** Sends one command and waits for its result, killing a runner that passes the limit (its clock stopped while a stepped call is paused). */
  const call = ({ type, command, requestId = String((next += 1)) }: { type: string; command: object & { mode?: unknown }; requestId?: string }): Promise<GoGenerateResult> => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ failure: { message: 'The genkit Go runner is not running.', status: 'UNAVAILABLE' } });
    const limitMs = options.callTimeoutMs ?? 120_000;
    return new Promise((resolve) => {
      const expire = () => {
        waiting.delete(requestId);
        pausedCalls.delete(requestId);
        child.kill('SIGKILL');
        resolve({ failure: { message: `The genkit Go runner did not answer within ${Math.round(limitMs / 1000)} s: it was stopped (the next Go run starts a new one).`, status: 'DEADLINE_EXCEEDED' } });
      };
      let timer: NodeJS.Timeout | undefined = setTimeout(expire, limitMs);
      if (command.mode) {
        pausedCalls.set(requestId, {
          pauses: 0,
          hold: () => (clearTimeout(timer), (timer = undefined)),
          release: () => (timer ??= setTimeout(expire, limitMs)),
        });
      }
      waiting.set(requestId, (result) => {
        clearTimeout(timer);
        pausedCalls.delete(requestId);
        resolve(result);
      });
      child.stdin.write(`${JSON.stringify({ type, requestId, ...command })}\n`);
    });
  };
  return {
    pid,
    tools,
    get exited() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    generate(command) {
      return call({ type: 'generate', command });
    },
    async replayStep(command, onCall) {
      const requestId = String((next += 1));
      replayCalls.set(requestId, onCall);
      try {
        return (await call({ type: 'replay-step', command, requestId })) as GoReplayStepResult;
      } finally {
        replayCalls.delete(requestId);
      }
    },
    ping(timeoutMs) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(false);
      const requestId = `ping-${(next += 1)}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pongs.delete(requestId);
          child.kill('SIGKILL');
          resolve(false);
        }, timeoutMs);
        pongs.set(requestId, () => {
          clearTimeout(timer);
          pongs.delete(requestId);
          resolve(true);
        });
        child.stdin.write(`${JSON.stringify({ type: 'ping', requestId })}\n`);
      });
    },
    command(command) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ ok: false, message: 'The genkit Go runner is not running.' });
      const requestId = `command:${(next += 1)}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          commands.delete(requestId);
          resolve({ ok: false, message: 'The genkit Go runner did not answer the step command within 10 s.' });
        }, 10_000);
        commands.set(requestId, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        child.stdin.write(`${JSON.stringify({ ...command, requestId })}\n`);
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write(`${JSON.stringify({ type: 'shutdown' })}\n`);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
