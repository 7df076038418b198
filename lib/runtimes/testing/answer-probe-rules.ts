/**
 * How a runtime's tests read its recorded answer probes (answer-probes.ts) as Loopscope's answers:
 * the one interface the agent frameworks' rules tests share. Each runtime says, in
 * `lib/runtimes/<runtime>/read/testing/probe-rules.ts`, how a probe's neutral answer becomes the
 * workbench's answer and what else its rules must say; describe-answer-probe-rules.ts checks the
 * rules against every recorded row, describe-live-answer-probes.ts checks the framework still does
 * what was recorded and runs the code Loopscope gives through the same probe. What is the same
 * for every framework — a paused call's context from a fixture, a check and its snippet — is here.
 */
import { resumeVerdictOf, type ResumeVerdict } from '../../contract/resume-answers';
import type { ResumeCheck, ResumeContext, ResumeValidation } from '../../loop/resume-model';
import { resumeContextFrom } from '../resume-context';
import { resumeSnippet, validateResume } from '../validate-resume';
import type { ProbeRequest, ProbeResult, RecordedAnswerProbe } from './answer-probes';
import { loadFrameworkFixture } from './framework-fixtures';

/** Loopscope's check of one probe's answer. */
export interface ProbeCheck {
  verdict: ResumeVerdict;
  /** What Loopscope said, by message (every step's, for an answer checked in steps: Mastra's). */
  errors: string[];
  warnings: string[];
  /** The code Loopscope gives for the answer, as a probe request (with what the probe needs besides), where it is to run. */
  snippet?: ProbeRequest;
}

/** Why the workbench cannot write a probe's answer (the probe uses an API the workbench never writes). */
export interface Inexpressible {
  inexpressible: string;
}

/** A runtime's reading of its answer probes; `Check`: its checks, with what its own assertions need. */
export interface AnswerProbeRules<Check extends ProbeCheck = ProbeCheck> {
  /** The runtime's folder (lib/runtimes/<runtime>/) and its framework app's (scripts/fixtures/frameworks/<runtime>/). */
  runtime: string;
  /** The framework's name, as the tests' titles say it. */
  framework: string;
  /** The probes the workbench cannot write, by name, in the recording's order: a change to the list is news. */
  inexpressible: readonly string[];
  /** Loopscope's check of the probe's answer, or why the workbench cannot write it. */
  check(probe: RecordedAnswerProbe): Promise<Check | Inexpressible>;
  /** What Loopscope's refusal must say of the framework's error (default: its type and message, `Type: message`). */
  refusal?(result: ProbeResult): string | RegExp;
  /** A framework message as compared, on both sides (Python sets in a stable order, …). */
  normalize?(message: string): string;
  /** What else Loopscope must say of a probe whose verdict it shares (its payload is what the framework was sent, its warnings). */
  agrees?(options: { probe: RecordedAnswerProbe; check: Check }): void;
  /** What else of a result must stay as recorded, beside its verdict, outcome, error and the tools that ran. */
  stable?(result: ProbeResult): unknown;
  /** The code Loopscope gives for a refused answer runs too, and must be refused the same way (default: only accepted ones run). */
  runsRefusedSnippets?: boolean;
  /** What else the code Loopscope gives must do as the probe's answer did. */
  snippetAgrees?(options: { probe: RecordedAnswerProbe; check: Check; snippet: ProbeResult }): void;
}

/** The paused call of a recorded fixture (`generateSpanId`: which one; the last by default), as the workbench rebuilds it. */
export async function pausedContext(options: { runtime: string; fixture: string; generateSpanId?: string }): Promise<ResumeContext> {
  return resumeContextFrom(await loadFrameworkFixture(options.runtime, options.fixture), { generateSpanId: options.generateSpanId });
}

/** A validation's verdict and what it said. */
export function probeCheckOf(validation: ResumeValidation): ProbeCheck {
  return { verdict: resumeVerdictOf(validation), errors: validation.errors.map((issue) => issue.message), warnings: validation.warnings.map((issue) => issue.message) };
}

/**
 * Loopscope's check of answers to a paused call, by the rules of the runtime that recorded it, and
 * the code it gives for them as a snippet request to the probe's pause `case`.
 */
export function checkAnswers(options: { context: ResumeContext; answers: Omit<ResumeCheck, 'context'>; case: string }): ProbeCheck & { context: ResumeContext; validation: ResumeValidation } {
  const { context } = options;
  const validation = validateResume({ context, ...options.answers });
  return { ...probeCheckOf(validation), context, validation, snippet: { case: options.case, snippet: resumeSnippet({ context, payload: validation.payload }) } };
}

/** A message's first sentence (up to the first ". "): where a framework's message goes on with advice Loopscope does not repeat. */
export const firstSentence = (message: string) => message.split('. ')[0];
