/**
 * The runner: a child process of the server that loads `tools/` into one real `genkit/beta`
 * instance (and `tools/ai-sdk/` for the AI SDK scenarios, which run real `generateText`) and
 * runs generate calls on request. Started as `node --import tsx runner-main.ts` (its bundle in the package: lib/install/)
 * with an IPC channel; it exits when the channel closes, so it never outlives the server.
 *
 * Its spans go to the server through its spool file, announced over the same IPC channel
 * (runner-telemetry.ts, runner-span-outbox.ts), and the server stores them.
 *
 * Environment: LOOPSCOPE_TOOLS_DIR, LOOPSCOPE_SCENARIOS_DIR, LOOPSCOPE_TOOL_TIMEOUT_MS,
 * LOOPSCOPE_PAUSE_TIMEOUT_MS, LOOPSCOPE_APPROVAL_SECRET (signs AI SDK approvals), LOOPSCOPE_RUNNER_SPOOL
 * (the spool file its spans travel through, which the server reads, also after the runner died:
 * span-batch-frames.ts),
 * LOOPSCOPE_OPENAI_BASE_URL / LOOPSCOPE_OPENAI_API_KEY and GEMINI_API_KEY (real providers: provider-model.ts).
 */
import path from 'node:path';
import { scriptedModelName } from '../contract/scenario';
import { LoopscopeError } from '../errors';
import { RunnerCommandSchema, type RunnerCommand, type RunnerEvent } from './runner-protocol';
import { RunnerSpanOutbox } from './runner-span-outbox';
import { openSpoolFile, type SpanSpool } from './span-batch-frames';
import { sendCloneable } from './send-cloneable';
import { runContext, startRunnerTelemetry } from './runner-telemetry';
import { RequestStop } from './request-stop';

function send(event: RunnerEvent): void {
  if (process.connected) sendCloneable((message: RunnerEvent) => process.send?.(message), event);
}

if (!process.send) {
  console.error('The runner is started by the Loopscope server (it needs an IPC channel).');
  process.exit(2);
}

const projectDir = process.cwd();
const toolsDir = path.resolve(projectDir, process.env.LOOPSCOPE_TOOLS_DIR ?? 'tools');
const scenariosDir = path.resolve(projectDir, process.env.LOOPSCOPE_SCENARIOS_DIR ?? path.join(toolsDir, 'scenarios'));
const toolTimeoutMs = Number(process.env.LOOPSCOPE_TOOL_TIMEOUT_MS ?? 30_000);

/** The spool file (lib/server/runner-spool.ts reads it); without it span batches go in the IPC messages, urgent ones at once. */
function openSpool(file: string | undefined): SpanSpool | undefined {
  if (!file) return undefined;
  try {
    return openSpoolFile(file);
  } catch (error) {
    console.error(`runner: no span spool (${error instanceof Error ? error.message : String(error)}); span batches go in the IPC messages`);
    return undefined;
  }
}

const outbox = new RunnerSpanOutbox(send, openSpool(process.env.LOOPSCOPE_RUNNER_SPOOL));
/** True while the runner warms genkit up before it is ready: those spans belong to no run and are not sent. */
let warmingUp = false;
// A tool that calls process.exit: what is still queued goes out on the way down.
process.on('exit', () => outbox.flush());

const telemetry = startRunnerTelemetry({
  // A run's trace ids reach the server with its spans (lib/server/runner-process.ts ties them to the run).
  onSpanStart: (span, { urgent }) => outbox.queueStart(span, urgent),
  onSpanEnd: (span, owner) => {
    if (!warmingUp) outbox.queueEnd(span, owner);
  },
});

/**
 * One generate on the hand-written model before the runner says it is ready. genkit compiles
 * a JSON-schema validator (ajv) the first time it validates a generate request and a model
 * request, and V8 compiles the loop's code: ≈340 ms of CPU that the first run on every fresh
 * runner paid (bench/capture-overhead.bench.ts), now spent while the pool keeps the runner warm.
 * It runs no tools/ code and its spans are not sent (they belong to no run).
 */
async function warmUp(ai: import('genkit/beta').GenkitBeta, handWrittenModel: string): Promise<void> {
  warmingUp = true;
  try {
    await ai.generate({ model: handWrittenModel, prompt: 'warm-up', config: { parts: [{ text: 'ready' }] } });
  } catch (error) {
    // Not being warm only makes the first run slower.
    console.error(`runner: the warm-up generate failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    warmingUp = false;
  }
}

/**
 * Ends the request's spans that its runtime left open — as failed with the run's cause (a tool
 * past its time limit never settles, so genkit never ends its span), or as stopped when the user
 * stopped the run — in each span's runtime shape, then sends every queued span event with the
 * request's result behind them, in one message: the server has all of the request's spans before
 * its result, and stores them before it says the run is done (lib/server/runner-supervisor.ts).
 * One write, not two: each wakes the server (bench/runner-process-overhead.bench.ts). A request reported
 * over while its code still runs says so (`codeLeftRunning`): the server replaces this runner.
 */
function finishRequest(result: Extract<RunnerEvent, { type: 'generate-result' | 'replay-result' }>, stop?: RequestStop): void {
  telemetry.closeOpenSpans(
    result.requestId,
    stop?.stopped
      ? { ending: { kind: 'stopped', message: 'The run was stopped by the user before this span ended (closed by Loopscope).' }, closedBy: 'run-stopped' }
      : { ending: { kind: 'failed', message: result.failure?.message ?? 'The run ended before this span did.' }, closedBy: 'run-ended' },
  );
  if (stop?.leftRunning) telemetry.abandon(result.requestId);
  outbox.flush(stop?.leftRunning ? { ...result, codeLeftRunning: true } : result);
}

/** Requests in flight, by run: what the user's Stop reaches (request-stop.ts). */
const inFlight = new Map<string, RequestStop>();

/**
 * Runs one request so that Stop ends it at once: its own result, or — when Stop could not wait
 * for its code (a tool executing) — the stopped failure, while that code is left behind.
 */
async function stoppable<Result extends object>(options: {
  runId: string;
  requestId: string;
  stepper?: import('./run-stepper').RunStepper;
  work: (abortSignal: AbortSignal) => Promise<Result>;
}): Promise<{ result: Result | { failure: import('./runner-protocol').GenerateFailure }; stop: RequestStop }> {
  const stop = new RequestStop({ runningTool: () => telemetry.runningTool(options.requestId, options.stepper?.pausedTools()), stepper: options.stepper });
  inFlight.set(options.runId, stop);
  try {
    const result = await Promise.race([options.work(stop.abort.signal), stop.abandoned.then((failure) => ({ failure }))]);
    stop.settled();
    return { result, stop };
  } finally {
    if (inFlight.get(options.runId) === stop) inFlight.delete(options.runId);
  }
}

// Commands are heard from the first moment, so pings are answered while tools load (a tool
// module stuck at import is then caught by the server's heartbeat); generate commands wait
// until loading is done.
const loaded = loadRuntime();

async function loadRuntime() {
  // genkit is imported after telemetry starts so its tracer binds to our provider.
  const { genkit } = await import('genkit/beta');
  const { loadToolModules } = await import('./load-tools');
  const { loadScenarios, isGenkitScenario } = await import('./scenario');
  const { defineScriptedModel } = await import('./scripted-model');
  const { runGenerate } = await import('./run-generate');
  const stepping = { ...(await import('./run-stepper')), ...(await import('./genkit-step-middleware')) };
  const { providerPlugins } = await import('./provider-model');
  // The endpoint's and Gemini's plugins, as this runner's environment sets them (`openai-compatible/<model>`, `googleai/<model>`).
  const ai = genkit({ plugins: await providerPlugins(process.env) });
  stepping.defineHandWrittenModel(ai);
  const tools = await loadToolModules(ai, toolsDir);
  const scenarioList = await loadScenarios(scenariosDir);
  const genkitScenarios = scenarioList.scenarios.filter(isGenkitScenario);
  const scenarios = new Map(genkitScenarios.map((scenario) => [scenario.name, scenario]));
  for (const scenario of genkitScenarios) defineScriptedModel(ai, scenario);
  const aiSdk = await loadAiSdkRuntime(scenarioList.scenarios);
  const models = Object.keys(await ai.registry.listActions())
    .filter((key) => key.startsWith('/model/'))
    .map((key) => key.slice('/model/'.length));
  // The AI SDK scenarios' scripted models: a resume of an AI SDK trace calls one of these.
  for (const name of aiSdk.scenarios.keys()) models.push(scriptedModelName(name));
  await warmUp(ai, stepping.HAND_WRITTEN_MODEL);
  send({
    type: 'ready',
    pid: process.pid,
    tools: tools.tools,
    aiSdkTools: aiSdk.tools,
    models,
    scenarios: scenarioList.scenarios,
    problems: [
      ...tools.problems,
      ...aiSdk.problems,
      ...scenarioList.problems.map((problem) => ({ ...problem, file: `scenarios/${problem.file}` })),
    ],
  });
  return { ai, scenarios, runGenerate, stepping, aiSdk };
}

/**
 * The AI SDK side of the runner: its telemetry integration registered once on this process's
 * tracer provider (the global one the runner's NodeSDK set, so its spans leave through the same
 * OTLP exporter as genkit's), the tools of tools/ai-sdk/ and the AI SDK scenarios.
 */
async function loadAiSdkRuntime(allScenarios: import('./scenario').Scenario[]) {
  const [{ registerTelemetry }, { OpenTelemetry }, { loadAiSdkTools, aiSdkToolInfos }, { runAiSdkGenerate }, { checkAiSdkScenario }, { checkAiSdkDecision }, { toolSetOf }] = await Promise.all([
    import('ai'),
    import('@ai-sdk/otel'),
    import('./ai-sdk/load-ai-sdk-tools'),
    import('./ai-sdk/run-ai-sdk-generate'),
    import('./ai-sdk/check-ai-sdk-scenario'),
    import('./ai-sdk/check-ai-sdk-decision'),
    import('./ai-sdk/run-ai-sdk-call'),
  ]);
  registerTelemetry(new OpenTelemetry());
  const catalog = await loadAiSdkTools(path.join(toolsDir, 'ai-sdk'));
  const scenarios = new Map<string, import('../contract/ai-sdk-scenario').AiSdkScenario>();
  const problems: { file: string; message: string }[] = catalog.problems.map((problem) => ({ ...problem, file: `ai-sdk/${problem.file}` }));
  for (const scenario of allScenarios) {
    if (scenario.runtime !== 'ai-sdk') continue;
    scenarios.set(scenario.name, scenario);
    for (const message of checkAiSdkScenario({ scenario, catalog })) problems.push({ file: `scenarios/${scenario.name}.json`, message });
  }
  const { providerEndpointOf } = await import('./provider-model');
  return { catalog, scenarios, problems, runAiSdkGenerate, endpoint: providerEndpointOf(process.env), tools: await aiSdkToolInfos(catalog), checkAiSdkDecision, toolSetOf };
}

type PauseInfo = import('./step-protocol').PauseInfo;
type PauseDecision = import('./step-protocol').PauseDecision;

/**
 * A stepped run in progress: its pauses, how its runtime checks a decision (the tools' schemas
 * it knows), and the runtime's name for messages.
 */
interface SteppedRun {
  stepper: import('./run-stepper').RunStepper;
  check: (pause: PauseInfo, decision: PauseDecision) => Promise<string[]>;
  runtime: string;
}

/** Stepped runs in progress, by run id (a run's resumes reuse its stepper's mode). */
const steppers = new Map<string, SteppedRun>();
const pauseTimeoutMs = Number(process.env.LOOPSCOPE_PAUSE_TIMEOUT_MS ?? 15 * 60_000);

/** Replays a recording on a fresh genkit instance (stubs or this runner's tools/), spans captured as a run. */
async function handleReplay(command: import('./runner-protocol').ReplayCommand) {
  await loaded;
  const run = { runId: command.runId, requestId: command.requestId, traceIds: new Set<string>() };
  const { result, stop } = await stoppable({ runId: command.runId, requestId: command.requestId, work: () => replay(command, run) });
  finishRequest({ type: 'replay-result', requestId: command.requestId, runId: command.runId, traceIds: [...run.traceIds], ...result }, stop);
}

async function replay(
  command: import('./runner-protocol').ReplayCommand,
  run: { runId: string; requestId: string; traceIds: Set<string> },
): Promise<{ report?: import('../replay/replay-report').ReplayReport; failure?: { message: string; status?: string } }> {
  try {
    const { loadRecording } = await import('./load-recording');
    const { readReplayable } = await import('../replay/read-recording');
    const { replayRecording } = await import('../replay/run-replay');
    const { loadToolModules } = await import('./load-tools');
    const { traceGenerate } = await import('./answer-link');
    // The server sends where the recording is, not the recording: it is read here.
    const read = readReplayable(await loadRecording(command.recording));
    const overrides = {
      modelResponses: new Map(command.overrides?.modelResponses ?? []),
      toolOutcomes: new Map(command.overrides?.toolOutcomes ?? []),
    };
    if (read.runtime === 'ai-sdk') {
      // An AI SDK recording replays with the real generateText (lib/runtime/ai-sdk/replay-ai-sdk.ts); live tools are tools/ai-sdk/'s.
      const { replayAiSdkRecording } = await import('./ai-sdk/replay-ai-sdk');
      const liveTools = command.liveTools ? (await loaded).aiSdk.catalog.tools : undefined;
      const report = await runContext.run(run, () => replayAiSdkRecording(read.recording, { mode: command.mode, overrides, liveTools, traceGenerate }));
      return { report };
    }
    // The server sends a genkit Go recording to its Go runner (replay-service.ts); never replay it with genkit JS.
    if (read.runtime === 'genkit-go') throw new LoopscopeError('FAILED_PRECONDITION', 'A genkit Go recording replays in the Go runner, not in a genkit JS runner.');
    const recording = read.recording;
    const report = await runContext.run(run, () =>
      replayRecording(recording, {
        mode: command.mode,
        overrides,
        liveTools: command.liveTools ? (replayAi) => loadToolModules(replayAi, toolsDir) : undefined,
        traceGenerate,
      }),
    );
    return { report };
  } catch (error) {
    return { failure: { message: error instanceof Error ? error.message : String(error), status: (error as { code?: string }).code } };
  }
}

async function handleStepCommand(command: Exclude<RunnerCommand, { type: 'generate' | 'replay' | 'ping' | 'shutdown' }>) {
  await loaded;
  const reply = (ok: boolean, extra: { problems?: string[]; message?: string } = {}) =>
    send({ type: 'command-result', requestId: command.requestId, ok, ...extra });
  if (command.type === 'stop') {
    // Any run in flight here stops, stepped or not (request-stop.ts).
    const stop = inFlight.get(command.runId);
    if (!stop) return reply(false, { message: `Run ${command.runId} is not running in this runner.` });
    stop.stop();
    return reply(true);
  }
  const stepped = steppers.get(command.runId);
  if (!stepped) return reply(false, { message: `Run ${command.runId} is not running in this runner.` });
  const { stepper } = stepped;
  if (command.type === 'set-mode') {
    stepper.setMode(command.mode);
    return reply(true);
  }
  const pause = stepper.pauseInfo(command.pauseId);
  if (!pause) return reply(false, { message: 'That pause is over (the run moved on, was stopped or timed out).' });
  const refusal = stepper.refusal(pause, command.decision.action);
  if (refusal) return reply(false, { message: refusal });
  const problems = await stepped.check(pause, command.decision);
  const forced = 'force' in command.decision && command.decision.force === true;
  if (problems.length > 0 && !forced) return reply(false, { problems, message: `The decision breaks the tool’s schema; send it with force to see what ${stepped.runtime} does.` });
  stepper.decide(command.pauseId, command.decision);
  return reply(true, { problems });
}

process.on('message', async (raw) => {
  const parsed = RunnerCommandSchema.safeParse(raw);
  if (!parsed.success) {
    console.error(`runner: ignored a malformed command: ${parsed.error.issues[0]?.message}`);
    return;
  }
  const command = parsed.data;
  // The spool is emptied once the server has read all of it (runner-span-outbox.ts).
  if (command.type === 'ping' || command.type === 'generate' || command.type === 'replay') outbox.serverRead(command.spoolRead);
  if (command.type === 'ping') return send({ type: 'pong', sentAt: command.sentAt });
  if (command.type === 'shutdown') {
    await telemetry.shutdown().catch(() => undefined);
    process.exit(0);
  }
  if (command.type === 'replay') return handleReplay(command);
  if (command.type !== 'generate') return handleStepCommand(command);
  const { ai, scenarios, runGenerate, stepping, aiSdk } = await loaded;
  const run = { runId: command.runId, requestId: command.requestId, traceIds: new Set<string>() };
  const aiSdkScenario = aiSdk.scenarios.get(command.scenario);
  // Either runtime pauses through one RunStepper; only how a decision is checked differs.
  let stepper: import('./run-stepper').RunStepper | undefined;
  if (command.mode) {
    stepper = new stepping.RunStepper(command.mode, {
      pauseTimeoutMs,
      // Behind the spans that led to it (the paused span's start among them), in one message: the
      // server knows the pause's trace and open span before the pause.
      onPause: (pause) => outbox.flush({ type: 'paused', runId: command.runId, pause: { ...pause, traceId: [...run.traceIds].at(-1) } }),
      onPauseEnded: (pauseId) => send({ type: 'pause-ended', runId: command.runId, pauseId }),
    });
    const tools = aiSdkScenario ? aiSdk.toolSetOf({ scenario: aiSdkScenario, catalog: aiSdk.catalog }) : undefined;
    steppers.set(command.runId, {
      stepper,
      check: tools ? (pause, decision) => aiSdk.checkAiSdkDecision({ tools, pause, decision }) : (pause, decision) => stepping.checkDecision({ ai, pause, decision }),
      runtime: aiSdkScenario ? 'the AI SDK' : 'genkit',
    });
  }
  const { result, stop } = await stoppable({
    runId: command.runId,
    requestId: command.requestId,
    stepper,
    work: (abortSignal) =>
      runContext.run(run, () =>
        aiSdkScenario
          ? aiSdk.runAiSdkGenerate({ scenario: aiSdkScenario, catalog: aiSdk.catalog, command, toolTimeoutMs, approvalSecret: process.env.LOOPSCOPE_APPROVAL_SECRET, stepper, endpoint: aiSdk.endpoint, abortSignal })
          : runGenerate({ ai, scenarios, command, toolTimeoutMs, stepper, abortSignal }),
      ),
  }).finally(() => {
    if (stepper && steppers.get(command.runId)?.stepper === stepper) steppers.delete(command.runId);
  });
  finishRequest({ type: 'generate-result', requestId: command.requestId, runId: command.runId, traceIds: [...run.traceIds], ...result }, stop);
});

// The server is gone, and with it the only place our spans go: leave, never linger as an orphan.
process.on('disconnect', () => process.exit(0));
