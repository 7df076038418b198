/**
 * What an agent framework really does with a hand-made answer to a pause, for the tests of a
 * dialect's resume rules: the answer probes recorded in
 * `lib/runtimes/<runtime>/__fixtures__/answer-probes.json` (scripts/fixtures/record-answer-probes.ts),
 * and the same probes run again, live, through the framework's own API in its venv
 * (scripts/fixtures/frameworks/<framework>/probe_answer.py: the contract is
 * scripts/fixtures/frameworks/README.md). The venv is made outside the repository by
 * scripts/ensure-venv.js (~/.cache/loopscope), so a fresh machine builds it on the first run.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_DIR } from './framework-fixtures';

/** A framework-neutral answer of a probe request (the README's: approve, deny, result, resume, and a framework's own keys). */
export interface NeutralAnswer {
  kind: 'approve' | 'deny' | 'result' | 'resume';
  value?: unknown;
  message?: string;
  always?: boolean;
  passId?: boolean;
}

/** One probe request: a pause the probe makes, and the answers by tool call id — or an answer snippet to run as the app would. */
export interface ProbeRequest {
  case: string;
  answer?: Record<string, NeutralAnswer | NeutralAnswer[]>;
  snippet?: string;
}

/** What the framework did with it. */
export interface ProbeResult {
  accepted: boolean;
  error: { type: string; message: string; stage?: string } | null;
  toolsRun: { toolCallId?: string; toolName?: string; status?: string }[];
  outcome: unknown;
  pendingAfter?: { toolCallId?: string }[];
  [key: string]: unknown;
}

export interface AnswerProbe {
  name: string;
  request: ProbeRequest;
  result: ProbeResult;
}

/** The probes recorded for a runtime, with what the framework did with each. */
export function recordedAnswerProbes(runtime: string): AnswerProbe[] {
  const file = path.join(PROJECT_DIR, 'lib', 'runtimes', runtime, '__fixtures__', 'answer-probes.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { probes: AnswerProbe[] }).probes;
}

/** A probe request's answers as a list of (tool call id, answer), each id's answers in order. */
export function neutralAnswers(request: ProbeRequest): { callId: string; answer: NeutralAnswer }[] {
  return Object.entries(request.answer ?? {}).flatMap(([callId, given]) => (Array.isArray(given) ? given : [given]).map((answer) => ({ callId, answer })));
}

/** The framework app's folder (scripts/fixtures/frameworks/<framework>/). */
const appFolder = (framework: string) => path.join(PROJECT_DIR, 'scripts', 'fixtures', 'frameworks', framework);

/** The framework app's venv python, made when missing (minutes on a fresh machine, then at once). */
export async function frameworkPython(framework: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(PROJECT_DIR, 'scripts', 'ensure-venv.js'), appFolder(framework), '--name', `fixtures-${framework}`], {
    cwd: PROJECT_DIR,
    timeout: 900_000,
    maxBuffer: 8 << 20,
  });
  return stdout.trim().split('\n').pop()!;
}

/**
 * Runs probe requests through the framework's real API, in one probe process (a batch: the
 * framework is imported once), offline and without telemetry as the recorder runs them.
 * @throws Error naming the probe's exit status and stderr when it prints fewer results than requests.
 */
export async function runAnswerProbes(options: { framework: string; python: string; requests: readonly ProbeRequest[] }): Promise<ProbeResult[]> {
  const child = spawn(options.python, ['probe_answer.py'], {
    cwd: appFolder(options.framework),
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', OPENAI_API_KEY: 'sk-loopscope-fixtures-offline', OTEL_SDK_DISABLED: 'true' } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify({ batch: options.requests }));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
  if (status !== 0 || lines.length !== options.requests.length) {
    throw new Error(`${options.framework}/probe_answer.py printed ${lines.length} result(s) for ${options.requests.length} request(s), exit ${status}:\n${stderr.slice(-3000)}`);
  }
  return lines.map((line) => JSON.parse(line) as ProbeResult);
}
