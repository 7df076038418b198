/**
 * The runner side of answering a paused call (lib/runtimes/runtime-driver.ts `AnswerSupport`):
 * what this machine's runners have for a runtime — the local tools its rules may consult, whether
 * its runs sign approvals, what cannot run here (a model not defined, a tool to run that is not in
 * the tools folder, a real model's provider not set up) — and the command that runs the checked
 * answer. The rules themselves are the dialects' (lib/runtimes/<id>/read/resume-rules.ts).
 */
import { describeChoice, type RealModelChoice } from '../contract/provider';
import type { ResumeFromTrace, ResumeIssue } from '../contract/resume-answers';
import type { ToolInfo } from '../contract/tool-info';
import type { LocalToolFacts, ResumeContext, ResumeValidation } from '../loop/resume-model';
import type { GenerateCommand } from '../runner/runner-protocol';
import type { Scenario } from '../runner/scenario';

/** What the runners loaded (the server's pool and runtime hosts, or the CLI's own runtime): tools by runtime, models, scenarios, providers. */
export interface RunnerFacts {
  /** The tools of each runtime whose runner has loaded them (a runtime absent here: its tools are not known yet). */
  toolsByRuntime: Readonly<Record<string, readonly ToolInfo[]>>;
  /** Models defined in the runners: a recorded call can be resumed only on one of these. */
  models: readonly string[];
  /** Every scenario the runners play, of every runtime. */
  scenarios: readonly Scenario[];
  /** Which real-model providers the runners have (lib/server/services/provider-config.ts): a recorded run on one resumes on it. */
  providers?: { openaiCompatible: boolean; gemini: boolean };
}

export interface ResumeTarget {
  /**
   * Which process runs the answer: the node runner pool, the runtime's own host (the genkit Go
   * runner), or none — a runtime Loopscope does not run (its rules say `elsewhere`: the agent
   * frameworks), whose answer is checked and given as the app's own code.
   */
  runsIn: 'node-runner' | 'runtime-host' | 'nowhere';
  /** With `nowhere`: why, in a sentence. */
  why?: string;
  localTools: ReadonlyMap<string, LocalToolFacts>;
  signsApprovals: boolean;
  /** What the rules accept but this runner cannot run. */
  blockers: ResumeIssue[];
  /** The runner command that runs the answer (the payload already checked). */
  command(validation: ResumeValidation): Omit<GenerateCommand, 'type' | 'requestId' | 'runId'>;
}

/** The options every runtime's target is made from. */
export interface ResumeTargetOptions {
  facts: RunnerFacts;
  context: ResumeContext;
  request: ResumeFromTrace;
}

/** Why a recorded real model cannot be called here, or undefined when the runners have its provider. */
export function providerBlocker({ facts, choice }: { facts: RunnerFacts; choice: RealModelChoice }): ResumeIssue | undefined {
  const available = choice.kind === 'gemini' ? facts.providers?.gemini : facts.providers?.openaiCompatible;
  if (available) return undefined;
  const how = choice.kind === 'gemini' ? 'set GEMINI_API_KEY before starting the server' : 'set the OpenAI-compatible endpoint on the home page (or LOOPSCOPE_OPENAI_BASE_URL)';
  return { code: 'FAILED_PRECONDITION', message: `The paused call ran on ${describeChoice(choice)}, which no runner can call now: ${how}.` };
}

export const NO_RECORDED_MODEL: ResumeIssue = { code: 'FAILED_PRECONDITION', message: 'The paused call did not record which model it called.' };

/** The answering call's root span links to the pause it answers: sessions and graphs need no guess. */
export const answerLink = (context: ResumeContext) => ({ traceId: context.traceId, spanId: context.spanId });
