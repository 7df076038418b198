/**
 * What this machine's runner has for answering a paused call of each runtime: the local tools
 * the dialect's rules may consult (genkit: respond-only interrupts; the AI SDK: tools handed back,
 * their output schemas), whether the run signs approvals, what cannot run here (a missing model,
 * a tool to run that is not in tools/), and the runner command that runs the answer. The rules
 * themselves are the dialects' (lib/dialects/<runtime>/resume-rules.ts); this is only the runner
 * side of each runtime, once.
 */
import { choiceOfGenkitModel, describeChoice, OPENAI_COMPATIBLE_PROVIDER, type RealModelChoice } from '../contract/provider';
import { scenarioOfScriptedModel, type GenkitGoScenario } from '../contract/scenario';
import type { ResumeFromTrace, ResumeIssue } from '../contract/resume-answers';
import { AI_SDK_DIALECT_ID } from '../dialects/ai-sdk/dialect-id';
import { GENKIT_GO_DIALECT_ID } from '../dialects/genkit-go/dialect-id';
import { DIALECTS } from '../dialects/registry';
import { LoopscopeError } from '../errors';
import type { LocalToolFacts, ResumeContext, ResumeValidation } from '../dialects/resume-model';
import { unavailableModelMessage } from '../resume/model-availability';
import type { GoToolInfo } from '../runtime/genkit-go/go-runner';
import type { GenerateCommand } from '../runtime/runner-protocol';
import type { RunnerStatus } from './runner-supervisor';

/** What a runner loaded (the server's pool, or the CLI's in-process runtime): tools of both runtimes, models, scenarios. */
export type RunnerFacts = Pick<RunnerStatus, 'tools' | 'aiSdkTools' | 'models' | 'scenarios'> & {
  /** The genkit Go scenarios (tools/go/scenarios/) and the Go runner's tools, when known. */
  go?: { scenarios: GenkitGoScenario[]; tools?: GoToolInfo[] };
  /** Which real-model providers the runners have (lib/server/provider-config.ts): a recorded run on one resumes on it. */
  providers?: { openaiCompatible: boolean; gemini: boolean };
};

/** Why a recorded real model cannot be called here, or undefined when the runners have its provider. */
function providerBlocker({ status, choice }: { status: RunnerFacts; choice: RealModelChoice }): ResumeIssue | undefined {
  const available = choice.kind === 'gemini' ? status.providers?.gemini : status.providers?.openaiCompatible;
  if (available) return undefined;
  const how = choice.kind === 'gemini' ? 'set GEMINI_API_KEY before starting the server' : 'set the OpenAI-compatible endpoint on the home page (or LOOPSCOPE_OPENAI_BASE_URL)';
  return { code: 'FAILED_PRECONDITION', message: `The paused call ran on ${describeChoice(choice)}, which no runner can call now: ${how}.` };
}

export interface ResumeTarget {
  /**
   * Which runner runs the answer: the genkit / AI SDK pool, the genkit Go runner, or none — a
   * runtime Loopscope does not run (its rules say `elsewhere`: Google ADK, LangGraph), whose
   * answer is checked and given as the app's own code.
   */
  runner: 'node' | 'go' | 'nowhere';
  /** With `nowhere`: why, in a sentence. */
  why?: string;
  localTools: ReadonlyMap<string, LocalToolFacts>;
  signsApprovals: boolean;
  /** What the rules accept but this runner cannot run. */
  blockers: ResumeIssue[];
  /** The runner command that runs the answer (the payload already checked). */
  command(validation: ResumeValidation): Omit<GenerateCommand, 'type' | 'requestId' | 'runId'>;
}

const link = (context: ResumeContext) => ({ traceId: context.traceId, spanId: context.spanId });
const noModel: ResumeIssue = { code: 'FAILED_PRECONDITION', message: 'The paused call did not record which model it called.' };

function genkitTarget({ status, context, request }: { status: RunnerFacts; context: ResumeContext; request: ResumeFromTrace }): ResumeTarget {
  const registered = new Map(status.tools.map((tool) => [tool.name, tool]));
  const blockers: ResumeIssue[] = [];
  for (const answer of request.restart) {
    if (!registered.has(answer.name)) {
      blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: no tool of that name is registered in tools/ (respond works without it).` });
    }
  }
  // A model of a provider plugin (`openai-compatible/<model>`, `googleai/<model>`) resolves in the runner through that plugin.
  const real = context.model ? choiceOfGenkitModel(context.model) : undefined;
  const realBlocker = real ? providerBlocker({ status, choice: real }) : undefined;
  if (!context.model) blockers.push(noModel);
  else if (realBlocker) blockers.push(realBlocker);
  else if (!real && !status.models.includes(context.model)) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  return {
    runner: 'node',
    localTools: registered,
    signsApprovals: false,
    blockers,
    command: (validation) => ({
      scenario: '',
      model: context.model,
      // Only tools registered here can be offered; the model may still ask for others (NOT_FOUND).
      tools: context.tools.map((tool) => tool.name).filter((name) => registered.has(name)),
      messages: validation.payload.messages,
      resume: { respond: request.respond, restart: request.restart },
      // The new trace's root span links to the interrupt it answers: sessions and graphs need no guess.
      answers: link(context),
    }),
  };
}

/** An AI SDK call runs again as its scenario's next `generateText` (its tools, approvals, step limit), on the rebuilt messages. */
function aiSdkTarget({ status, context, request }: { status: RunnerFacts; context: ResumeContext; request: ResumeFromTrace }): ResumeTarget {
  const local = new Map((status.aiSdkTools ?? []).map((tool) => [tool.name, tool]));
  const scripted = context.model ? scenarioOfScriptedModel(context.model) : undefined;
  // A run of a scenario on the endpoint records the endpoint's model id and, as `functionId`, the scenario's name.
  // @ai-sdk/otel records `openai-compatible.chat` as the well-known `gen_ai.provider.name` "openai" (its mapProviderName).
  const fromEndpoint = context.modelProvider === 'openai' || context.modelProvider?.startsWith(OPENAI_COMPATIBLE_PROVIDER) === true;
  const real: RealModelChoice | undefined = context.model && !scripted && fromEndpoint ? { kind: 'openai-compatible', model: context.model } : undefined;
  const name = scripted ?? (real ? context.callName : undefined);
  const scenario = status.scenarios.find((candidate) => candidate.runtime === 'ai-sdk' && candidate.name === name);
  const blockers: ResumeIssue[] = [];
  const realBlocker = real ? providerBlocker({ status, choice: real }) : undefined;
  if (!context.model) blockers.push(noModel);
  else if (realBlocker) blockers.push(realBlocker);
  else if (!scenario || scenario.runtime !== 'ai-sdk') blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  for (const answer of request.approve ?? []) {
    const tool = local.get(answer.name);
    if (!tool || tool.handedBack) {
      blockers.push({
        code: 'FAILED_PRECONDITION',
        request: answer.name,
        message: `Cannot approve ${answer.name}: no AI SDK tool of that name with execute is in tools/ai-sdk/, so nothing would run it (deny and respond work without it).`,
      });
    }
  }
  return {
    runner: 'node',
    localTools: local,
    signsApprovals: scenario?.runtime === 'ai-sdk' && scenario.approvalSecret === true,
    blockers,
    command: (validation) => ({ scenario: name ?? '', model: context.model, messages: validation.payload.messages, answers: link(context), ...(real ? { provider: real } : {}) }),
  };
}

/** A genkit Go call runs again in the Go runner, as its scenario's next generate (its tools), on the recorded history with the answers. */
function goTarget({ status, context, request }: { status: RunnerFacts; context: ResumeContext; request: ResumeFromTrace }): ResumeTarget {
  const name = context.model ? scenarioOfScriptedModel(context.model) : undefined;
  const scenario = status.go?.scenarios.find((candidate) => candidate.name === name);
  const tools = status.go?.tools ? new Map(status.go.tools.map((tool) => [tool.name, { resumeSchema: tool.resumeSchema, resumeType: tool.resumeType }])) : undefined;
  const blockers: ResumeIssue[] = [];
  if (!context.model) blockers.push(noModel);
  else if (!scenario) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  // The scenario's generate offers only Go tools registered in tools/go/: a restart runs one.
  for (const answer of request.restart) {
    if (tools && !tools.has(answer.name)) {
      blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: no Go tool of that name is registered in tools/go/ (respond works without it).` });
    }
  }
  return {
    runner: 'go',
    localTools: tools ?? new Map(),
    signsApprovals: false,
    blockers,
    command: () => ({ scenario: name ?? '', messages: context.messages, resume: { respond: request.respond, restart: request.restart }, answers: link(context) }),
  };
}

/** The runner side of answering a call of the context's runtime (none for a runtime Loopscope does not run). */
export function resumeTargetOf(options: { status: RunnerFacts; context: ResumeContext; request: ResumeFromTrace }): ResumeTarget {
  const elsewhere = DIALECTS.find((dialect) => dialect.id === options.context.dialect)?.resume?.elsewhere;
  if (elsewhere) {
    return {
      runner: 'nowhere',
      why: elsewhere.why,
      localTools: new Map(),
      signsApprovals: false,
      blockers: [],
      command: () => {
        throw new LoopscopeError('FAILED_PRECONDITION', elsewhere.why);
      },
    };
  }
  if (options.context.dialect === AI_SDK_DIALECT_ID) return aiSdkTarget(options);
  if (options.context.dialect === GENKIT_GO_DIALECT_ID) return goTarget(options);
  return genkitTarget(options);
}
