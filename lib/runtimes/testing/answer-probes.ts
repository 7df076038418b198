/**
 * What an agent framework really does with a hand-made answer to a pause, for the tests of a
 * dialect's resume rules and for the recorder of scripts/fixtures/record-answer-probes.ts — one
 * harness for every framework, Python or Node. Each framework app of
 * scripts/fixtures/frameworks/<framework>/ has an answer probe (`probe_answer.py` or
 * `probe_answer.mjs`: it makes a pause offline and sends an answer through the framework's own
 * API) and, beside it, `probe-requests.json`: the answers to send, each named. What the framework
 * did with each is recorded in `lib/runtimes/<runtime>/__fixtures__/answer-probes.json`. The
 * rules tests send the same answers through Loopscope's rules (describe-answer-probe-rules.ts), run
 * the probes again, live, and run the answer code Loopscope writes through the same probe, as a
 * "snippet" request (describe-live-answer-probes.ts). The protocol is
 * scripts/fixtures/frameworks/README.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ValueAnswer } from '../../contract/resume-answers';
import { LoopscopeError } from '../../errors';
import type { ResumeContext } from '../../loop/resume-model';
import { frameworkApp, frameworkInterpreter, type FrameworkApp } from './framework-app';
import { PROJECT_DIR } from './framework-fixtures';

/**
 * A framework-neutral answer: approve, deny (with a message), the caller's result, or a value to
 * resume with — the kinds Loopscope's rules take — and a probe's own kinds and keys, which its
 * docstring names (OpenAI Agents' `always`, Strands' `block`, ADK's `tool`, …).
 */
export const NeutralAnswerSchema = z
  .object({ kind: z.string().min(1), value: z.unknown().optional(), message: z.string().optional() })
  .passthrough();
export type NeutralAnswer = z.infer<typeof NeutralAnswerSchema>;

/**
 * One request to a probe: the pause it makes (`case`, in the probe's words) and the answers by
 * tool call id (several to one id: a list, in order) — or `snippet`, the code an app would run to
 * answer, with what the probe needs besides (LangGraph's recorded interrupt ids, Mastra's run id, …).
 */
export const ProbeRequestSchema = z
  .object({
    case: z.string().min(1),
    answer: z.record(z.string(), z.union([NeutralAnswerSchema, z.array(NeutralAnswerSchema)])).optional(),
    snippet: z.string().optional(),
  })
  .passthrough();
export type ProbeRequest = z.infer<typeof ProbeRequestSchema>;

/** A tool body that ran in the answering run, in the app's words for its status. */
export const ProbeToolSchema = z.object({ toolCallId: z.string().nullable(), tool: z.string().nullable(), status: z.string() }).passthrough();

/** What the framework did with a request: every probe prints the first four, and what else it knows. */
export const ProbeResultSchema = z
  .object({
    accepted: z.boolean(),
    error: z.object({ type: z.string(), message: z.string(), stage: z.string().optional() }).passthrough().nullable(),
    toolsRun: z.array(ProbeToolSchema),
    /** How the answering run ended, in the probe's words (completed, paused, interrupted, suspended, error, not sent, …); null when nothing ran. */
    outcome: z.string().nullable(),
    /** What the probe sent through the framework's API, in the framework's shapes. */
    sent: z.unknown().optional(),
    /** The pauses the first run left, and those still pending after the answer, as the probe describes them. */
    pendingBefore: z.array(z.unknown()).optional(),
    pendingAfter: z.array(z.unknown()).optional(),
    /** The model's last text in the answering run. */
    finalText: z.string().nullable().optional(),
  })
  .passthrough();
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

/** One entry of a probe-requests.json: a name, the request, and what the row shows that the result does not say (the guide's table prints it). */
export const AnswerProbeSchema = z.object({ name: z.string().min(1), request: ProbeRequestSchema, note: z.string().optional() }).strict();
export type AnswerProbe = z.infer<typeof AnswerProbeSchema>;

/** A probe as recorded: the request and what the framework did with it. */
export type RecordedAnswerProbe = AnswerProbe & { result: ProbeResult };

/** The recorded fixture of a runtime's answer probes. */
export const RecordedAnswerProbesSchema = z.object({ description: z.string(), probes: z.array(AnswerProbeSchema.extend({ result: ProbeResultSchema })) });

/** The path of a framework's probe requests: beside the app that answers them. */
export const probeRequestsPath = (framework: string) => path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', framework, 'probe-requests.json');

/** The path of a runtime's recorded answer probes: beside its other fixtures. */
export const recordedAnswerProbesPath = (runtime: string) => path.join(PROJECT_DIR, 'lib', 'runtimes', runtime, '__fixtures__', 'answer-probes.json');

/** A JSON file read and checked against its schema; the errors name the file and the first problem. */
function readJson<T>(options: { file: string; schema: z.ZodType<T> }): T {
  const relative = path.relative(PROJECT_DIR, options.file);
  if (!existsSync(options.file)) throw new LoopscopeError('NOT_FOUND', `${relative} does not exist`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(options.file, 'utf8'));
  } catch (error) {
    throw new LoopscopeError('INVALID_ARGUMENT', `${relative} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = options.schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LoopscopeError('INVALID_ARGUMENT', `${relative}: ${issue?.message} at ${issue?.path.join('.') || 'the top'}`, { cause: parsed.error });
  }
  return parsed.data;
}

/**
 * The answers to send through a framework's probe (scripts/fixtures/frameworks/<framework>/probe-requests.json).
 * @throws LoopscopeError INVALID_ARGUMENT when an entry breaks the format or two share a name.
 */
export function probeRequests(framework: string): AnswerProbe[] {
  const file = probeRequestsPath(framework);
  const probes = readJson({ file, schema: z.array(AnswerProbeSchema).min(1) });
  const names = new Set<string>();
  for (const probe of probes) {
    if (names.has(probe.name)) throw new LoopscopeError('INVALID_ARGUMENT', `${path.relative(PROJECT_DIR, file)}: two probes are named "${probe.name}"`);
    names.add(probe.name);
  }
  return probes;
}

/** What the framework did with each of its probe requests, as recorded (lib/runtimes/<runtime>/__fixtures__/answer-probes.json). */
export function recordedAnswerProbes(runtime: string): RecordedAnswerProbe[] {
  return readJson({ file: recordedAnswerProbesPath(runtime), schema: RecordedAnswerProbesSchema }).probes;
}

/** A probe request's answers as a list of (tool call id, answer), each id's answers in order. */
export function neutralAnswers(request: ProbeRequest): { callId: string; answer: NeutralAnswer }[] {
  return Object.entries(request.answer ?? {}).flatMap(([callId, given]) => (Array.isArray(given) ? given : [given]).map((answer) => ({ callId, answer })));
}

/**
 * A probe's neutral answers as Loopscope's answers, where the kinds map one to one (approve,
 * deny with its message as the reason, result → respond, resume → a value, or — `resumeAs:
 * 'restart'`, for a framework whose "go on with this value" runs the call with new arguments — a
 * restart with that input). Each answer names the tool of its call in the paused `context`; an
 * id the paused call does not name takes the answer's own `tool`, else `otherTool` (get_weather).
 * @throws LoopscopeError INVALID_ARGUMENT for a kind of the probe's own, which has no Loopscope answer.
 */
export function loopscopeAnswers(options: { request: ProbeRequest; context: ResumeContext; otherTool?: string; resumeAs?: 'value' | 'restart' }): {
  approve: ApproveAnswer[];
  deny: DenyAnswer[];
  respond: RespondAnswer[];
  restart: RestartAnswer[];
  values: ValueAnswer[];
} {
  const answers = { approve: [] as ApproveAnswer[], deny: [] as DenyAnswer[], respond: [] as RespondAnswer[], restart: [] as RestartAnswer[], values: [] as ValueAnswer[] };
  for (const { callId: ref, answer } of neutralAnswers(options.request)) {
    const name = options.context.requests.find((request) => request.ref === ref)?.name ?? (typeof answer.tool === 'string' ? answer.tool : (options.otherTool ?? 'get_weather'));
    if (answer.kind === 'approve') answers.approve.push({ name, ref });
    else if (answer.kind === 'deny') answers.deny.push({ name, ref, ...(answer.message !== undefined ? { reason: answer.message } : {}) });
    else if (answer.kind === 'result') answers.respond.push({ name, ref, output: answer.value });
    else if (answer.kind === 'resume' && options.resumeAs === 'restart') answers.restart.push({ name, ref, replaceInput: answer.value });
    else if (answer.kind === 'resume') answers.values.push({ name, ref, value: answer.value });
    else throw new LoopscopeError('INVALID_ARGUMENT', `answer kind "${answer.kind}" for ${ref} has no Loopscope answer`);
  }
  return answers;
}

/** A framework's probe, ready to run: the app, the command that runs its scripts, and the probe's file. */
export interface AnswerProbeRunner {
  app: FrameworkApp;
  command: string;
  script: string;
}

/**
 * The framework's probe, its packages installed first when they are not yet (minutes on a fresh
 * machine, at once after). `progress`: the install's log is shown as it comes.
 * @throws LoopscopeError NOT_FOUND when the app has no probe_answer script.
 */
export async function answerProbeRunner(framework: string, options: { progress?: boolean } = {}): Promise<AnswerProbeRunner> {
  const app = frameworkApp(framework);
  const script = app.language === 'python' ? 'probe_answer.py' : 'probe_answer.mjs';
  if (!existsSync(path.join(app.folder, script))) throw new LoopscopeError('NOT_FOUND', `scripts/fixtures/frameworks/${framework}/ has no ${script}`);
  return { app, script, command: await frameworkInterpreter(app, options) };
}

/**
 * Offline, without telemetry, the same for every probe and every run: no exporter endpoint, a
 * placeholder model key, and Python's set order fixed (the frameworks' messages print sets).
 */
const PROBE_ENVIRONMENT = {
  LANG: 'C.UTF-8',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONHASHSEED: '0',
  OTEL_SDK_DISABLED: 'true',
  OPENAI_API_KEY: 'sk-loopscope-fixtures-offline',
};
const STARTUP_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Sends requests through the framework's real API, all in one probe process (a batch: the
 * framework is imported once), and returns what it did with each, in order.
 * @throws LoopscopeError INTERNAL naming the probe's exit status and stderr when it does not print one result per request.
 */
export async function runAnswerProbes(options: { probe: AnswerProbeRunner; requests: readonly ProbeRequest[] }): Promise<ProbeResult[]> {
  const { probe, requests } = options;
  const child = spawn(probe.command, [probe.script], {
    cwd: probe.app.folder,
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), ...PROBE_ENVIRONMENT } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: STARTUP_TIMEOUT_MS + REQUEST_TIMEOUT_MS * requests.length,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify({ batch: requests }));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
  const where = `scripts/fixtures/frameworks/${probe.app.framework}/${probe.script}`;
  if (status !== 0 || lines.length !== requests.length) {
    throw new LoopscopeError('INTERNAL', `${where} printed ${lines.length} result(s) for ${requests.length} request(s), exit ${status}:\n${stderr.slice(-3000)}`);
  }
  return lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new LoopscopeError('INTERNAL', `${where}: result ${index + 1} is not JSON: ${line.slice(0, 200)}`, { cause: error });
    }
    const parsed = ProbeResultSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LoopscopeError('INTERNAL', `${where}: result ${index + 1} breaks the protocol: ${issue?.message} at ${issue?.path.join('.')}`, { cause: parsed.error });
    }
    return parsed.data;
  });
}
