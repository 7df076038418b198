/**
 * The genkit Go dialect: spans of genkit Go apps (the `genkit:*` attributes of genkit JS, a
 * resource with `telemetry.sdk.language = go`), read by the genkit JS readers with Go's
 * differences, measured on github.com/firebase/genkit/go v1.4.0 (go/runner, fixtures here):
 * tools are `tool.v2` actions; an interrupted tool span ends `genkit:state=error` with no
 * interrupt attribute (the generate's output message is the evidence of the pause); a resume is
 * recorded without `resume` (go-resume.ts), its restarted tool in a trace of its own. Its
 * interrupts are answered by genkit Go's rules (resume-rules.ts, measured on the module) and the
 * payload shown as Go code (resume-snippet.ts). Replaying Go calls is not built yet (issue 13).
 */
import { enclosedByCall as genkitEnclosedByCall } from '../genkit-js/enclosed-by-call';
import { isGenkitSpan } from '../genkit-js/classify-span';
import { readGenerateCall } from '../genkit-js/read-generate';
import { buildToolCall } from '../genkit-js/read-tool-call';
import { genkitJs } from '../genkit-js';
import type { RuntimeDialect } from '../runtime-dialect';
import type { Span } from '../../trace/span';
import { isRestartOfLaterResume, readGoResume } from './go-resume';
import { GENKIT_GO_DIALECT_ID } from './dialect-id';
import { goResumeContextOf } from './resume-context';
import { validateGoResume } from './resume-rules';
import { goResumeSnippet } from './resume-snippet';

export { GENKIT_GO_DIALECT_ID };

/** A genkit span sent by a Go program (the OTel Go SDK's resource names its language). */
export function isGenkitGoSpan(span: Span): boolean {
  return isGenkitSpan(span) && span.resource['telemetry.sdk.language'] === 'go';
}

export const genkitGo: RuntimeDialect = {
  ...genkitJs,
  id: GENKIT_GO_DIALECT_ID,
  title: 'genkit Go',
  explains: {
    pause:
      'This tool paused the loop: it returned an interrupt (ToolContext.Interrupt, ai.InterruptWith). genkit Go ends its span with genkit:state=error and records no interrupt attribute, but it is not a failure: the generate ended with finishReason "interrupted" — its output message (metadata.interrupt) is the evidence — and waits for a response part (ToolDef.Respond) or a restart part (ToolDef.Restart).',
    resolutions: {
      respond: 'Answered by a response part (ToolDef.Respond) — the tool did not run again',
      restart: 'Restarted (ToolDef.Restart) — the tool ran again with ToolContext.Resumed set, before the generate, in a trace of its own (genkit Go 1.4 records no resumed data)',
      pending: 'Reused — the tool finished in the interrupted turn (source: pending) and was not re-run',
      unresolved: 'Left unanswered — genkit Go refuses the resume',
    },
    sendSpans: 'set a tracer provider with an otlptracehttp exporter (otel.SetTracerProvider) before genkit.Init, pointed at this server’s /v1/traces.',
  },
  claims: isGenkitGoSpan,
  enclosedByCall: (index, span) => genkitEnclosedByCall(index, span) || isRestartOfLaterResume(index, span),
  readCall: (options) => readGenerateCall({ ...options, readResume: readGoResume }),
  // genkit JS's bug 5 (an interrupt of a tool run alone reported as an error) is JS's.
  readStandaloneTool: (index, span) => buildToolCall({ index, span }),
  // genkit 1.42's bugs are genkit JS's.
  notesAfterLinking: undefined,
  resume: { answerKinds: genkitJs.resume!.answerKinds, contextOf: goResumeContextOf, validate: validateGoResume, snippet: goResumeSnippet },
};
