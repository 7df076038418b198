/**
 * Answering an attached app's interrupt IN the app: the workbench's respond / restart, checked
 * by the genkit JS dialect's rules as for every trace, runs as genkit's `/util/generate` action
 * in the attached runtime that defines the recorded model and tools — the app's own model, tools
 * and middleware, on the recorded history with the `resume` parts. The answering trace reaches
 * Loopscope through GENKIT_TELEMETRY_SERVER and links to the interrupt by content (tool name +
 * ref + input + conversation, lib/graph/match-resumes.ts): no OTel link can be added from here.
 *
 * A trace is the app's when it arrived through the genkit telemetry door, or when an attached
 * runtime defines its model. An app's trace whose runtime is not attached is refused with a
 * sentence saying how to attach it. genkit Go 1.12 and Python 0.12 have `/util/generate` with
 * `resume` too (measured, docs/attach-runtimes.md): a Go trace is checked by the genkit Go
 * dialect's rules and its responses to multipart tools are wrapped as Go takes them
 * (genkit-go/app-resume-input.ts); a Python trace is read and answered as genkit JS's (same wire,
 * bare outputs).
 */
import type { ResumeFromTrace, ResumeIssue } from '../../contract/resume-answers';
import type { RunActionResult } from '../../contract/runtimes';
import type { LocalToolFacts, ResumeContext, ResumeValidation } from '../../loop/resume-model';
import { ATTACHED_KINDS, kindsRecording } from '../../runtimes/genkit-reflection/attached-kinds';
import { resumeGenerateInput } from '../../runtimes/genkit-reflection/generate-input';
import { CAPTURED_THROUGH_ATTRIBUTE, CAPTURED_THROUGH_GENKIT_TELEMETRY } from '../../spans/loopscope-attributes';
import type { Span } from '../../spans/span';
import type { GenerateResult } from '../../runner/run-requests';
import { runtimeDefining, type Attachment } from './attach-service';

export const HOW_TO_ATTACH = 'start your app with `loopscope start -- <command that starts it>` (or run it with GENKIT_ENV=dev in a folder Loopscope watches) and try again';

export interface AppResumeTarget {
  runsIn: 'app';
  runtimeId?: string;
  runtimeName?: string;
  localTools: ReadonlyMap<string, LocalToolFacts>;
  signsApprovals: false;
  blockers: ResumeIssue[];
  /** The `/util/generate` input that runs the checked answer. */
  generateInput(validation: ResumeValidation): Record<string, unknown>;
}

const capturedFromApp = (spans: readonly Span[], traceId: string) => spans.some((span) => span.traceId === traceId && span.resource[CAPTURED_THROUGH_ATTRIBUTE] === CAPTURED_THROUGH_GENKIT_TELEMETRY);

/**
 * The app target of a paused call, or undefined when the call is not an app's (the built-in
 * runners answer it as before).
 */
export async function appResumeTarget(options: { attachment: Attachment; spans: readonly Span[]; context: ResumeContext; request: ResumeFromTrace }): Promise<AppResumeTarget | undefined> {
  const { attachment, spans, context, request } = options;
  const fromApp = capturedFromApp(spans, context.traceId);
  const tools = context.tools.map((tool) => tool.name);
  const found = context.model ? await runtimeDefining({ attachment, model: context.model, tools }) : undefined;
  if (!fromApp && !found) return undefined;
  const blockers: ResumeIssue[] = [];
  const recordedBy = kindsRecording(context.dialect);
  if (recordedBy.length === 0) {
    blockers.push({ code: 'FAILED_PRECONDITION', message: "Answering an app's interrupt in the app works for genkit apps only (JS, Go, Python): Loopscope runs it as genkit's /util/generate action with resume." });
  } else if (found && !recordedBy.includes(found.runtime.runtime)) {
    // The wire differs (Go's multipart responses): a Go trace must be answered by a Go app and the other way round.
    const titles = recordedBy.map((kind) => ATTACHED_KINDS[kind].title.replace(/^genkit /, ''));
    blockers.push({ code: 'FAILED_PRECONDITION', message: `This trace was recorded by a genkit ${titles.join(' or ')} app, and the attached app defining its model ${context.model} is ${found.runtime.runtime}: attach the app that recorded it.` });
  } else if (!context.model) {
    blockers.push({ code: 'FAILED_PRECONDITION', message: 'The paused call did not record which model it called.' });
  } else if (!found) {
    blockers.push({ code: 'FAILED_PRECONDITION', message: `This trace comes from your app, and no attached app defines its model ${context.model}: ${HOW_TO_ATTACH}.` });
  } else {
    for (const answer of request.restart) {
      if (found.missingTools.includes(answer.name)) {
        blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: the attached app ${found.runtime.name} has no tool of that name (respond works without it).` });
      }
    }
  }
  const offered = found ? tools.filter((tool) => !found.missingTools.includes(tool)) : tools;
  return {
    runsIn: 'app',
    ...(found ? { runtimeId: found.runtime.id, runtimeName: found.runtime.name } : {}),
    localTools: new Map<string, LocalToolFacts>(),
    signsApprovals: false,
    blockers,
    generateInput: (validation) =>
      resumeGenerateInput({ model: context.model ?? '', tools: offered, payload: (found && ATTACHED_KINDS[found.runtime.runtime].resumePayload?.({ payload: validation.payload, tools: context.tools })) ?? validation.payload }),
  };
}

type Part = { text?: string; metadata?: Record<string, unknown> };

/** A `/util/generate` run as the run registry's result (its outcome read from genkit's GenerateResponseData). */
export function generateResultOf(options: { result: RunActionResult; input: Record<string, unknown> }): GenerateResult {
  const { result, input } = options;
  const traceIds = result.traceId ? [result.traceId] : [];
  if (result.outcome === 'error') return { traceIds, failure: { message: result.error?.message ?? 'The app failed the generate.', status: result.error?.code } };
  const output = (result.output ?? {}) as { finishReason?: string; message?: { content?: Part[] } };
  const content = output.message?.content ?? [];
  return {
    traceIds,
    outcome: {
      finishReason: output.finishReason,
      text: content.map((part) => part.text ?? '').join(''),
      interrupts: content.filter((part) => part.metadata?.interrupt !== undefined),
      messages: [...((input.messages as unknown[]) ?? []), ...(output.message ? [output.message] : [])],
    },
  };
}
