import { z } from 'zod';
import { LoopscopeError } from '../errors';
import { unavailableModelMessage } from '../resume/model-availability';
import { resumeContextFrom } from '../resume/resume-context';
import { validateResume, type ResumeIssue } from '../resume/validate-resume';
import type { AppContext } from './app-context';
import type { RunSession } from './run-registry';
import { loadTraceSource, TraceSourceSchema } from './trace-source';

export const ResumeFromTraceSchema = z.object({
  /** Where the interrupted generate was recorded: captured traces, or a saved file. */
  source: TraceSourceSchema,
  /** The interrupted generate's span; the last interrupted one when absent. */
  generateSpanId: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  respond: z.array(z.object({ name: z.string().min(1), ref: z.string().optional(), output: z.unknown() })).max(100).default([]),
  restart: z
    .array(z.object({ name: z.string().min(1), ref: z.string().optional(), resumed: z.unknown().optional(), replaceInput: z.unknown().optional() }))
    .max(100)
    .default([]),
  /** Warnings (genkit 1.42 pitfalls) were shown and accepted. */
  confirmWarnings: z.boolean().optional(),
});
export type ResumeFromTrace = z.infer<typeof ResumeFromTraceSchema>;


const describeIssues = (issues: ResumeIssue[]) => issues.map((issue) => issue.message).join(' ');

/**
 * Resumes an interrupted generate from any loaded trace — live, captured, saved — with the
 * local tools: the answers are checked first (nothing runs when a rule is broken), the
 * recorded history is sent as it was, and the new generate becomes a run of its own whose
 * trace links to the interrupts it answered. The loaded trace is never modified.
 */
export async function resumeFromTrace(context: AppContext, request: ResumeFromTrace): Promise<{ run: RunSession; warnings: ResumeIssue[] }> {
  const spans = await loadTraceSource(context, request.source);
  const resumeContext = resumeContextFrom(spans, request.generateSpanId);
  const registered = new Map(context.supervisor.status.tools.map((tool) => [tool.name, tool]));
  const validation = validateResume({ context: resumeContext, respond: request.respond, restart: request.restart, localTools: registered });
  if (validation.errors.length > 0) throw new LoopscopeError('INVALID_ARGUMENT', `genkit would refuse this resume: ${describeIssues(validation.errors)}`);
  if (validation.warnings.length > 0 && !request.confirmWarnings) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Confirm these warnings first: ${describeIssues(validation.warnings)}`);
  }
  for (const answer of request.restart) {
    if (!registered.has(answer.name)) throw new LoopscopeError('FAILED_PRECONDITION', `Cannot restart ${answer.name}: no tool of that name is registered in tools/ (respond works without it).`);
  }
  if (!resumeContext.model) throw new LoopscopeError('FAILED_PRECONDITION', 'The interrupted generate did not record which model it called.');
  if (!context.supervisor.status.models.includes(resumeContext.model)) throw new LoopscopeError('FAILED_PRECONDITION', unavailableModelMessage(resumeContext.model));
  const run = context.runs.create(`resume of ${resumeContext.model}`, { kind: 'run' }, undefined, request.source);
  if ('traceIds' in request.source) context.runs.noteAnsweredBy(request.source.traceIds, run.runId);
  void context.supervisor
    .generate({
      runId: run.runId,
      scenario: '',
      model: resumeContext.model,
      // Only tools registered here can be offered; the model may still ask for others (NOT_FOUND).
      tools: resumeContext.tools.map((tool) => tool.name).filter((name) => registered.has(name)),
      messages: resumeContext.messages,
      resume: { respond: request.respond, restart: request.restart },
      // The new trace's root span links to the interrupt it answers: sessions and graphs need no guess.
      answers: { traceId: resumeContext.traceId, spanId: resumeContext.spanId },
    })
    .then((result) => context.runs.complete(run.runId, result));
  return { run, warnings: validation.warnings };
}
