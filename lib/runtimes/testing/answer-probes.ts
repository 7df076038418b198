/**
 * The frameworks' answer probes, for the rules tests: each probe
 * (scripts/fixtures/frameworks/<framework>/probe_answer.py) makes a recorded case's pause in the
 * real framework, offline, sends one answer through the framework's own API and prints what the
 * framework did (accepted or refused with its error, the tools that ran, what it was sent). The
 * answers are neutral, keyed by tool call id (`probe-requests.json`): approve, deny with a message,
 * the caller's result, or a resume value — the same kinds Loopscope's rules take, so a test sends
 * the same answer through both and compares.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApproveAnswer, DenyAnswer, RespondAnswer, ValueAnswer } from '../../contract/resume-answers';
import { isObject } from '../../spans/json-value';
import { PROJECT_DIR } from './framework-fixtures';

export interface ProbeRequest {
  label: string;
  case: string;
  /** Tool call id → `{type: approve}`, `{type: deny, message}`, `{type: result, value}`, `{type: resume, value}`, or any value (sent as it is). */
  answer: Record<string, unknown>;
}

export interface ProbeResult {
  accepted: boolean;
  error: { type: string; message: string } | null;
  toolsRun: { toolCallId: string | null; tool: string; status: string; result?: unknown }[];
  outcome: string;
  sent: unknown;
}

const folderOf = (framework: string) => path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', framework);

/** The framework's probe requests. */
export function probeRequests(framework: string): ProbeRequest[] {
  return JSON.parse(readFileSync(path.join(folderOf(framework), 'probe-requests.json'), 'utf8')) as ProbeRequest[];
}

/** The python of the framework's venv (made by scripts/ensure-venv.js on first use: minutes on a fresh machine, instant after). */
export async function probePython(framework: string): Promise<string> {
  const runtime = (JSON.parse(readFileSync(path.join(folderOf(framework), 'fixture.json'), 'utf8')) as { runtime: string }).runtime;
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(PROJECT_DIR, 'scripts', 'ensure-venv.js'), folderOf(framework), '--name', `fixtures-${runtime}`], { timeout: 900_000, maxBuffer: 8 << 20 });
  return stdout.trim().split('\n').pop() as string;
}

/** Runs a script of the framework's folder with one JSON request on stdin, offline, and returns the JSON line it printed last. */
async function runFrameworkScript(options: { framework: string; python: string; script: string; input: unknown; what: string }): Promise<unknown> {
  const child = execFile(options.python, [options.script], {
    cwd: folderOf(options.framework),
    timeout: 180_000,
    maxBuffer: 16 << 20,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' } as unknown as NodeJS.ProcessEnv,
  });
  child.stdin?.end(JSON.stringify(options.input));
  const output = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => resolve({ stdout, stderr }));
  });
  const line = output.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new Error(`${options.framework} ${options.what} printed no JSON line:\n${output.stderr.slice(-2000)}`, { cause: error });
  }
}

/** Runs one probe request in the real framework (offline: no exporter, no model key) and returns what it did. */
export async function runProbe(options: { framework: string; python: string; request: ProbeRequest }): Promise<ProbeResult> {
  const { request } = options;
  return (await runFrameworkScript({ ...options, script: 'probe_answer.py', input: { case: request.case, answer: request.answer }, what: `probe "${request.label}"` })) as ProbeResult;
}

export interface SnippetRun {
  /** The code ran to its end (false: it raised, or the framework refused what it sent). */
  ran: boolean;
  error: { type: string; message: string } | null;
  toolsRun: { toolCallId: string | null; tool: string; status?: string }[];
  /** LangGraph: the interrupts still pending after the answer. */
  pendingAfter?: string[];
  finalText: string | null;
}

/**
 * Runs Loopscope's answer code in the real framework, against the case's pause made offline
 * (`run_snippet.py` of the framework's folder); `extra`: what the script needs besides (LangGraph:
 * the recorded interrupt ids and thread, which it replaces by its own pause's).
 */
export async function runSnippet(options: { framework: string; python: string; fixtureCase: string; code: string; extra?: Record<string, unknown> }): Promise<SnippetRun> {
  return (await runFrameworkScript({ ...options, script: 'run_snippet.py', input: { case: options.fixtureCase, code: options.code, ...options.extra }, what: `snippet run of ${options.fixtureCase}` })) as SnippetRun;
}

/** A probe's neutral answer as Loopscope's answers (`nameOf`: the tool of a call id, for an id the trace does not name). */
export function loopscopeAnswers(options: { answer: Record<string, unknown>; nameOf: (callId: string) => string | undefined }): { approve: ApproveAnswer[]; deny: DenyAnswer[]; respond: RespondAnswer[]; values: ValueAnswer[] } {
  const answers = { approve: [] as ApproveAnswer[], deny: [] as DenyAnswer[], respond: [] as RespondAnswer[], values: [] as ValueAnswer[] };
  for (const [ref, answer] of Object.entries(options.answer)) {
    const named = isObject(answer) && typeof answer.tool === 'string' ? answer.tool : undefined;
    const name = options.nameOf(ref) ?? named ?? 'get_weather';
    const kind = isObject(answer) ? answer.type : undefined;
    if (kind === 'approve') answers.approve.push({ name, ref });
    else if (kind === 'deny') answers.deny.push({ name, ref, ...(isObject(answer) && typeof answer.message === 'string' ? { reason: answer.message } : {}) });
    else if (kind === 'result') answers.respond.push({ name, ref, output: (answer as Record<string, unknown>).value });
    else if (kind === 'resume') answers.values.push({ name, ref, value: (answer as Record<string, unknown>).value });
    else answers.values.push({ name, ref, value: answer });
  }
  return answers;
}
