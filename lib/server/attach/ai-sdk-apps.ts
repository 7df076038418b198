/**
 * The AI SDK apps that talk to Loopscope through `loopscope/ai-sdk` (issue 39; the wire is
 * lib/contract/attach-ai-sdk.ts, the decision docs/adr/0013-ai-sdk-app-door.md). Each app is
 * known by its name: the mode the developer chose for it on the Apps page (the mode its next
 * calls start in), the tools its calls offered, its runs. Each `generateText` / `streamText` of
 * the app is a run: created when the call starts (its pauses then held by AttachedSteps, through
 * the step door, as for a genkit app's generate), completed when it ends; a call that stopped for
 * an approval or a handed-back tool leaves its run interrupted, and when the app asks Loopscope
 * for the answer (`answerInLoopscope`), the workbench's answer is delivered here, to the app's
 * held request. The app's next call, made with that answer, goes on as the same run.
 */
import type { AiSdkAppAnswer, AiSdkAppTool, AiSdkAppView, AiSdkAnswerWaitResponse, AiSdkEndRequest, AiSdkStartRequest, AiSdkStartResponse } from '../../contract/attach-ai-sdk';
import { WAIT_HOLD_MS } from '../../contract/attach-step';
import type { RunMode } from '../../contract/run-mode';
import type { RunSession } from '../../contract/run-session';
import type { ListedTool } from '../../contract/tool-info';
import { LoopscopeError } from '../../errors';
import { exampleFromSchema } from '../../loop/example-from-schema';
import { tokensMatch } from '../http/request-guard';
import type { RunRegistry } from '../services/run-registry';
import type { AttachedSteps } from './attached-steps';

/** How long the workbench waits for the app to say it took the answer. */
const ACK_TIMEOUT_MS = 15_000;
/** An app that has not asked for its answer for this long after its last hold ended is gone (it exited, or stopped asking). */
const GONE_AFTER_MS = 10_000;
const MAX_APPS = 50;
const MAX_RUNS = 200;
const RUNS_LISTED = 10;

interface KnownApp {
  name: string;
  pid?: number;
  lastSeen: number;
  mode: RunMode;
  tools: Set<string>;
  runIds: string[];
}

/** The app waiting for the developer's answer to the calls its run left waiting. */
interface AnswerWait {
  /** When the app last asked (or its held request ended). */
  lastAsked: number;
  /** The app's `answer` request held open, if any. */
  waiter?: (answer: AiSdkAnswerWaitResponse) => void;
  /** An answer on its way to the app (delivered by the next `answer` request), until the app acknowledges it. */
  answer?: AiSdkAppAnswer;
  delivered?: boolean;
  /** The workbench's send, waiting for the app to build its messages from the answer. */
  settle?: (problems: string[]) => void;
}

interface AppRun {
  runId: string;
  app: string;
  /** Its step token: the step door while the call runs; `end`, `answer`, `answer-ack` after. */
  token: string;
  tools: AiSdkAppTool[];
  /** The traces of the call that ended waiting (its paused call is answered from there). */
  waitingTraceIds: string[];
  /** Its call runs (between `start` and `end`): only then may it tell its end. */
  running: boolean;
  /** Calls the last call left waiting; empty while it runs or when it ended without any. */
  waiting: number;
  answerWait?: AnswerWait;
}

/** An AI SDK app's run that waits for the developer's answer, as the resume service sends it there. */
export interface WaitingAppRun {
  runId: string;
  appName: string;
  tools: AiSdkAppTool[];
}

/** A tool of the app as the step panel lists it: its schemas and examples built from them. */
function listedTool(tool: AiSdkAppTool, appName: string): ListedTool {
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    ...(tool.handedBack ? { handedBack: true } : {}),
    file: `the app ${appName}`,
    inputExample: exampleFromSchema(tool.inputSchema),
    outputExample: exampleFromSchema(tool.outputSchema),
  };
}

export class AiSdkApps {
  private readonly apps = new Map<string, KnownApp>();
  private readonly runs = new Map<string, AppRun>();

  constructor(private readonly options: { runs: RunRegistry; steps: AttachedSteps; holdMs?: number; now?: () => number }) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The app by name, created (in Run mode) when first seen; its pid and last request noted. */
  private seen(app: { name: string; pid?: number }): KnownApp {
    let known = this.apps.get(app.name);
    if (!known) {
      known = { name: app.name, lastSeen: 0, mode: { kind: 'run' }, tools: new Set(), runIds: [] };
      this.apps.set(app.name, known);
      while (this.apps.size > MAX_APPS) this.apps.delete(this.apps.keys().next().value as string);
    }
    known.lastSeen = this.now();
    if (app.pid !== undefined) known.pid = app.pid;
    return known;
  }

  /** `hello`: the package is set up in the app. */
  hello(app: { name: string; pid?: number }): { mode: RunMode } {
    return { mode: this.seen(app).mode };
  }

  /**
   * `start`: a call of the app begins — a new run in the app's mode, or, when it answers a run of
   * the app that waits, that run going on (it keeps its mode; its resumes count up).
   */
  start(request: AiSdkStartRequest): AiSdkStartResponse {
    const app = this.seen(request.app);
    for (const tool of request.tools) app.tools.add(tool.name);
    const answered = request.answers ? this.runs.get(request.answers.runId) : undefined;
    const goesOn = answered && answered.app === app.name && this.options.runs.get(answered.runId)?.status === 'interrupted' ? answered : undefined;
    if (goesOn) {
      this.options.runs.resumeInput(goesOn.runId, {});
      const run = this.options.runs.get(goesOn.runId) as RunSession;
      goesOn.token = this.options.steps.open(goesOn.runId, run.mode);
      goesOn.tools = request.tools;
      goesOn.running = true;
      goesOn.waiting = 0;
      goesOn.waitingTraceIds = [];
      goesOn.answerWait = undefined;
      return { runId: goesOn.runId, token: goesOn.token, mode: run.mode };
    }
    const label = `${app.name}: ${request.functionId ?? `${request.operation} with ${request.model.modelId}`}`;
    const run = this.options.runs.create({
      label,
      mode: app.mode,
      app: { runtimeId: `ai-sdk:${app.name}`, runtimeName: app.name, runtime: request.runtime, model: request.model.modelId, tools: request.tools.map((tool) => listedTool(tool, app.name)) },
    });
    const token = this.options.steps.open(run.runId, app.mode);
    this.runs.set(run.runId, { runId: run.runId, app: app.name, token, tools: request.tools, waitingTraceIds: [], running: true, waiting: 0 });
    while (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value as string);
    app.runIds = [run.runId, ...app.runIds.filter((runId) => runId !== run.runId)].slice(0, RUNS_LISTED);
    return { runId: run.runId, token, mode: app.mode };
  }

  /**
   * The app's run a request names, its token checked.
   * @throws LoopscopeError NOT_FOUND (no such run of an app: it was forgotten, or Loopscope restarted), UNAUTHENTICATED (no or wrong token).
   */
  authorize(runId: string, token: string | null): AppRun {
    const run = this.runs.get(runId);
    if (!run) throw new LoopscopeError('NOT_FOUND', `No run ${runId} of an AI SDK app is known here: it was forgotten, or Loopscope restarted.`);
    if (!token || !tokensMatch(token, run.token)) throw new LoopscopeError('UNAUTHENTICATED', `The step token of run ${runId} is wrong.`);
    return run;
  }

  /**
   * `end`: the call ended. Its pauses close; the run is finished, failed or stopped — or
   * interrupted, when calls wait for an answer (its token then stays good for the answer; else it
   * is forgotten here, and its token with it).
   * @throws LoopscopeError FAILED_PRECONDITION for a call that already ended.
   */
  end(run: AppRun, request: AiSdkEndRequest): void {
    if (!run.running) throw new LoopscopeError('FAILED_PRECONDITION', `The call of run ${run.runId} already ended.`);
    run.running = false;
    this.options.steps.close(run.runId);
    const waiting = request.outcome?.waiting ?? [];
    this.options.runs.complete(run.runId, {
      traceIds: request.traceIds,
      ...(request.outcome
        ? { outcome: { finishReason: request.outcome.finishReason, text: request.outcome.text, interrupts: waiting, messages: [] } }
        : { failure: { message: request.failure?.message ?? 'The call failed.', ...(request.failure?.name ? { name: request.failure.name } : {}) } }),
    });
    run.waiting = request.outcome ? waiting.length : 0;
    run.waitingTraceIds = run.waiting > 0 ? request.traceIds : [];
    if (run.waiting === 0) this.runs.delete(run.runId);
    // The app is about to ask for the answer: waited for now, not only once its first request arrives.
    else if (request.appWaits) run.answerWait = { lastAsked: this.now() };
  }

  /** `answer`: the app waits for the developer's answer — answered when there is one, else `{waiting}` after the hold. */
  waitForAnswer(run: AppRun): Promise<AiSdkAnswerWaitResponse> {
    if (run.waiting === 0) throw new LoopscopeError('FAILED_PRECONDITION', `Run ${run.runId} waits for no answer: its call did not end with an approval or a handed-back tool waiting.`);
    const wait = (run.answerWait ??= { lastAsked: this.now() });
    wait.lastAsked = this.now();
    if (wait.answer && !wait.delivered) {
      wait.delivered = true;
      return Promise.resolve({ answer: wait.answer });
    }
    // One held request per run: a newer one replaces the older (which is told to ask again).
    wait.waiter?.({ waiting: true });
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ waiting: true }), this.options.holdMs ?? WAIT_HOLD_MS);
      const finish = (answer: AiSdkAnswerWaitResponse) => {
        clearTimeout(timer);
        if (wait.waiter === finish) wait.waiter = undefined;
        wait.lastAsked = this.now();
        resolve(answer);
      };
      wait.waiter = finish;
    });
  }

  /** `answer-ack`: the app built its messages from the answer (no problems: the send succeeded), or could not (the answer may be sent again). */
  ackAnswer(run: AppRun, problems: string[]): void {
    const wait = run.answerWait;
    if (!wait?.answer) throw new LoopscopeError('FAILED_PRECONDITION', `No answer was sent to run ${run.runId}.`);
    wait.settle?.(problems);
    wait.settle = undefined;
    wait.answer = undefined;
    wait.delivered = false;
    if (problems.length === 0) run.waiting = 0;
  }

  /** The app's run that waits for an answer to the call recorded in `traceId`, when the app is still asking for it. */
  waitingFor(traceId: string): WaitingAppRun | undefined {
    for (const run of this.runs.values()) {
      if (run.waiting === 0 || !run.waitingTraceIds.includes(traceId) || !run.answerWait) continue;
      const wait = run.answerWait;
      const asking = wait.waiter !== undefined || this.now() - wait.lastAsked < GONE_AFTER_MS;
      if (asking) return { runId: run.runId, appName: run.app, tools: run.tools };
    }
    return undefined;
  }

  /**
   * Sends the developer's checked answer to the app that waits for it; resolves once the app
   * built its next call's messages from it, with the problems it found (none: taken).
   * @throws LoopscopeError FAILED_PRECONDITION (the run waits for nothing, an answer is on its way already, the app did not take it in time).
   */
  deliver(options: { runId: string; answer: AiSdkAppAnswer }): Promise<string[]> {
    const run = this.runs.get(options.runId);
    const wait = run?.answerWait;
    if (!run || run.waiting === 0 || !wait) return Promise.reject(new LoopscopeError('FAILED_PRECONDITION', `Run ${options.runId} does not wait for an answer in its app.`));
    if (wait.answer) return Promise.reject(new LoopscopeError('FAILED_PRECONDITION', 'An answer for this run is already on its way to the app.'));
    wait.answer = options.answer;
    wait.delivered = false;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (wait.settle !== settle) return;
        wait.settle = undefined;
        wait.answer = undefined;
        wait.delivered = false;
        reject(new LoopscopeError('FAILED_PRECONDITION', `The app ${run.app} did not take the answer within ${ACK_TIMEOUT_MS / 1000} s: is it still running?`));
      }, ACK_TIMEOUT_MS);
      const settle = (problems: string[]) => {
        clearTimeout(timer);
        resolve(problems);
      };
      wait.settle = settle;
      if (wait.waiter) {
        wait.delivered = true;
        wait.waiter({ answer: options.answer });
      }
    });
  }

  /** The mode an app's next calls start in (the Apps page). @throws LoopscopeError NOT_FOUND for an app never seen. */
  setMode(name: string, mode: RunMode): AiSdkAppView {
    const app = this.apps.get(name);
    if (!app) throw new LoopscopeError('NOT_FOUND', `No AI SDK app named "${name}" has talked to Loopscope (known: ${[...this.apps.keys()].join(', ') || 'none'}).`);
    app.mode = mode;
    return this.view(app);
  }

  /** The apps, the most recently seen first. */
  list(): AiSdkAppView[] {
    return [...this.apps.values()].sort((a, b) => b.lastSeen - a.lastSeen).map((app) => this.view(app));
  }

  private view(app: KnownApp): AiSdkAppView {
    const runs = app.runIds.flatMap((runId) => {
      const run = this.options.runs.get(runId);
      return run ? [{ runId, label: run.label, status: run.status, startedAt: run.startedAt }] : [];
    });
    return { name: app.name, ...(app.pid !== undefined ? { pid: app.pid } : {}), lastSeen: app.lastSeen, mode: app.mode, tools: [...app.tools].sort(), runs };
  }
}
