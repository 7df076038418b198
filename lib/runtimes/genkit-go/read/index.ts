/**
 * The genkit Go dialect: spans of genkit Go apps (the `genkit:*` attributes of genkit JS, a
 * resource with `telemetry.sdk.language = go`), read by the genkit JS readers with Go's
 * differences, measured on github.com/firebase/genkit/go v1.12.0 (go/runner, fixtures here):
 * tools are `tool.v2` actions; an interrupted tool span ends `genkit:state=error` with no
 * interrupt attribute (the generate's output message is the evidence of the pause); a hold of
 * the ToolApproval middleware is told from the tool's own interrupt by the generate's `use` and
 * the hook's message (tool-approval.ts). A resume is recorded as genkit JS records one (`resume`
 * in the input, restarts run inside it). Its interrupts are answered by genkit Go's rules
 * (resume-rules.ts, measured on the module) and the payload shown as Go code (resume-snippet.ts).
 * Its recordings replay in the Go runner (recording.ts, lib/runtimes/genkit-go/replay/replay-go.ts).
 */
import { isGenkitSpan } from '../../genkit-js/read/classify-span';
import { readGenerateCallAndInput, type ParsedInput } from '../../genkit-js/read/read-generate';
import { buildToolCall } from '../../genkit-js/read/read-tool-call';
import { genkitJs } from '../../genkit-js/read';
import type { ReadCall, RuntimeDialect } from '../../../loop/runtime-dialect';
import type { Span } from '../../../spans/span';
import { goBugNotes } from './known-bugs';
import { holdOf, toolApprovalsOf } from './tool-approval';
import { GENKIT_GO_DIALECT_ID } from './dialect-id';
import { goResumeContextOf } from './resume-context';
import { goDefaultKind, goResumedAs, goResumedExample, goWaitingFor, validateGoResume } from './resume-rules';
import { goResumeSnippet } from './resume-snippet';
import { withStepNotes } from './step-marks';

export { GENKIT_GO_DIALECT_ID };

/** A genkit span sent by a Go program (the OTel Go SDK's resource names its language). */
export function isGenkitGoSpan(span: Span): boolean {
  return isGenkitSpan(span) && span.resource['telemetry.sdk.language'] === 'go';
}

/** Marks the interrupts a hook raised (ToolApproval's holds) as held by it, with the evidence. */
function markHolds({ read, root, parsedInput }: { read: ReadCall; root: Span; parsedInput?: ParsedInput }): ReadCall {
  const interrupted = read.call.turns.flatMap((turn) => turn.toolCalls).filter((call) => call.status === 'interrupted' && call.interrupt);
  const approvals = interrupted.length > 0 ? toolApprovalsOf(root, parsedInput) : [];
  for (const call of approvals.length > 0 ? interrupted : []) {
    const hold = holdOf({ approvals, tool: call.name, interruptMetadata: call.interrupt!.metadata });
    if (hold) call.interrupt = { ...call.interrupt!, heldBy: { by: hold.by, evidence: hold.evidence } };
  }
  return read;
}

export const genkitGo: RuntimeDialect = {
  ...genkitJs,
  id: GENKIT_GO_DIALECT_ID,
  title: 'genkit Go',
  explains: {
    pause:
      'This call paused the loop with an interrupt (the tool’s own tool.Interrupt / ToolContext.Interrupt, or a WrapTool hook such as ToolApproval holding it). genkit Go ends its span with genkit:state=error and records no interrupt attribute, but it is not a failure: the generate ended with finishReason "interrupted" — its output message (metadata.interrupt) is the evidence — and waits for a response part (tool.Respond) or a restart part (tool.Resume, or the tool’s Restart with a new input).',
    resolutions: {
      respond: 'Answered by a response part (tool.Respond) — the tool did not run again',
      restart: 'Restarted (tool.Resume) — the tool ran again with its resume data (typed tools receive it as their Go resume type), inside the resume’s generate',
      pending: 'Reused — the tool finished in the interrupted turn (source: pending) and was not re-run',
      unresolved: 'Left unanswered — genkit Go refuses the resume',
    },
    sendSpans: 'set a tracer provider with an otlptracehttp exporter (otel.SetTracerProvider) before genkit.Init, pointed at this server’s /v1/traces.',
  },
  view: {
    pausedRun: 'The run is paused: {count} tool call(s) interrupted and wait for an answer (respond or restart).',
    scenarioHint: 'genkit Go (go/runner, tools/go/): the first run builds the Go runner',
    // The node detail's fork of a model answer replays in a genkit JS runner only.
  },
  claims: isGenkitGoSpan,
  readCall: (options) => {
    const { read, parsedInput } = readGenerateCallAndInput({ ...options, bugNotes: goBugNotes });
    return withStepNotes({ read: markHolds({ read, root: options.root, parsedInput }), index: options.index, root: options.root });
  },
  // genkit JS's bug 5 (an interrupt of a tool run alone reported as an error) is JS's.
  readStandaloneTool: (index, span) => buildToolCall({ index, span }),
  // genkit 1.42's bugs are genkit JS's.
  notesAfterLinking: undefined,
  resume: {
    answerKinds: genkitJs.resume!.answerKinds,
    contextOf: goResumeContextOf,
    validate: validateGoResume,
    snippet: goResumeSnippet,
    snippetLanguage: 'Go',
    waitingFor: goWaitingFor,
    defaultKind: goDefaultKind,
    resumedExample: goResumedExample,
    resumedAs: goResumedAs,
  },
};
