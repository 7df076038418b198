/**
 * The genkit JS dialect: genkit's spans (`genkit:*` attributes), read into the loop model.
 * Everything Loopscope knows about genkit JS lives in this folder: attribute names and message
 * parts (message-parts.ts), classification (classify-span.ts), calls and resumes
 * (read-generate.ts, resume-parts.ts), link keys (link-keys.ts), resume rules
 * (resume-rules.ts, resume-context.ts), recordings for replay (recording.ts) and genkit 1.42's
 * known bugs (known-bugs.ts).
 */
import type { Span } from '../../../spans/span';
import type { GenerateCall, ToolCall, ToolCallById } from '../../../loop/loop-model';
import type { RuntimeDialect } from '../../../loop/runtime-dialect';
import type { SpanIndex } from '../../../loop/span-index';
import { classifyGenkitSpan, GENKIT_TYPE_ATTRIBUTE, isGenkitSpan } from './classify-span';
import { GENKIT_DIALECT_ID } from './dialect-id';
import { enclosedByCall } from './enclosed-by-call';
import { GENKIT_BUGS } from './known-bugs';
import { readGenerateCall } from './read-generate';
import { buildToolCall } from './read-tool-call';
import { genkitResumeContextOf } from './resume-context';
import { genkitSpanValues } from './span-values';
import { validateGenkitResume } from './resume-rules';
import { genkitConversationOf } from './conversation';
import { GENKIT_ANSWER_KINDS, genkitResumeSnippet } from './resume-snippet';
import { closeGenkitOpenSpan, genkitRunningTool } from './open-spans';

/** A tool run directly as an action: genkit gives its caller an error for an interrupt there (bug 5). */
function readStandaloneTool(index: SpanIndex, span: Span): ToolCall {
  const call = buildToolCall({ index, span });
  if (call.status === 'interrupted') call.notes = [GENKIT_BUGS[5].graphNote()];
  return call;
}

/**
 * genkit 1.42 bug 3 shows only once resumes are tied to their interrupts: a retried resume
 * finds the pendingOutput an earlier one stripped from the shared messages, and fails.
 */
function notesAfterLinking(generates: readonly GenerateCall[], toolCallById: ToolCallById): void {
  for (const generate of generates) {
    for (const resolution of generate.resume?.resolutions ?? []) {
      if (resolution.kind !== 'unresolved' || resolution.answersToolCallId === undefined) continue;
      const call = toolCallById(resolution.answersToolCallId);
      if (!call) continue;
      const own = call.resolvedBy.findIndex((entry) => entry.nodeId === resolution.id && entry.generateId === generate.id);
      if (call.resolvedBy.slice(0, own).some((entry) => entry.kind === 'pending')) generate.notes.push(GENKIT_BUGS[3].graphNote(resolution.request.name));
    }
  }
}

export const genkitJs: RuntimeDialect = {
  id: GENKIT_DIALECT_ID,
  title: 'genkit JS',
  explains: {
    pause: 'This tool paused the loop: it called ctx.interrupt() (or is a defineInterrupt tool). genkit records a ToolInterruptError on its span, but it is not a failure: the generate ended with finishReason "interrupted" and waits for a respond or restart part.',
    resolutions: {
      respond: 'Answered by respond — a hand-written output; the tool did not run again',
      restart: 'Restarted — the tool ran again with ctx.resumed set',
      pending: 'Reused pendingOutput — the tool finished in the interrupted turn and was not re-run',
      unresolved: 'Left unanswered — genkit refuses the resume (INVALID_ARGUMENT)',
    },
    sendSpans: 'call disableGenkitOTelInitialization() from genkit/tracing, then start a NodeSDK with an OTLPTraceExporter before importing genkit.',
  },
  view: {
    pausedRun: 'The run is paused: {count} tool call(s) interrupted and wait for an answer (respond or restart).',
    forksModelAnswers: true,
  },
  claims: isGenkitSpan,
  claimedBy: { attributes: [GENKIT_TYPE_ATTRIBUTE] },
  classify: classifyGenkitSpan,
  enclosedByCall,
  readCall: readGenerateCall,
  readStandaloneTool,
  notesAfterLinking,
  spanValues: genkitSpanValues,
  conversationOf: genkitConversationOf,
  resume: { answerKinds: GENKIT_ANSWER_KINDS, contextOf: genkitResumeContextOf, validate: validateGenkitResume, snippet: genkitResumeSnippet },
  runningTool: genkitRunningTool,
  closeOpenSpan: closeGenkitOpenSpan,
};
