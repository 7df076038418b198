/**
 * Answering a paused call in this process, for the command line (`loopscope resume` without
 * `--dry-run`): each runtime's driver checks the answer by its rules with this machine's tools,
 * runs the answering call with its spans captured, and hands them back; the CLI stores and prints
 * them the same way for every runtime (lib/cli/resume-command.ts).
 */
import type { ResumeFromTrace, ResumeIssue } from '../contract/resume-answers';
import type { ResumeContext } from '../loop/resume-model';
import type { Span } from '../spans/span';

export interface AnswerHereOptions {
  context: ResumeContext;
  /** The answers, as the workbench sends them (the runtime takes the kinds it has). */
  request: ResumeFromTrace;
  /**
   * `projectDir` is Loopscope's own folder (a clone, or the installed package: go/runner,
   * tools/go), `dataDir` its data folder (where the Go runner's binary is built: never inside an
   * installed package).
   */
  where: { projectDir: string; dataDir: string; toolsDir: string; scenariosDir: string; toolTimeoutMs: number };
  /** An OTLP receiver on loopback, for a runtime that exports its spans from another process (the genkit Go runner). */
  receiveSpans: () => Promise<{ endpoint: string; token: string; spansOf(traceIds: readonly string[]): Promise<Span[]>; close(): Promise<void> }>;
  /** Warnings and unchecked parts, to stderr. */
  warn(text: string): void;
}

export type AnswerHereResult =
  /** Nothing ran: the broken rules (or what cannot run here), as `--dry-run` names them. */
  | { refused: { errors: ResumeIssue[]; warnings: ResumeIssue[] } }
  | {
      /** The spans the answering call recorded. */
      spans: Span[];
      /** How many spans it started, when known: fewer captured means the trace is incomplete. */
      started?: number;
      /** The runtime failed or rejected the answering call (its words). */
      failure?: string;
      /** The first line the CLI prints, in the runtime's words (`Resumed the interrupted generate of trace …`). */
      headline: string;
    };
