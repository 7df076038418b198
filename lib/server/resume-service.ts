import type { ResumeFromTrace } from '../contract/resume-answers';
import { LoopscopeError } from '../errors';
import { unavailableModelMessage } from '../resume/model-availability';
import { resumeContextFrom } from '../resume/resume-context';
import { validateResume, type ResumeIssue } from '../resume/validate-resume';
import type { AppContext } from './app-context';
import type { RunSession } from './run-registry';
import { loadTraceSource } from './trace-source';

// The request is part of the wire contract; the routes import it from here.
export { ResumeFromTraceSchema, type ResumeFromTrace } from '../contract/resume-answers';

const describeIssues = (issues: ResumeIssue[]) => issues.map((issue) => issue.message).join(' ');

/**
 * Checks answers to an interrupted generate of any loaded trace against genkit's rules (and
 * its 1.42 pitfalls, as warnings) with the tools registered here, and builds the exact payload
 * — nothing runs. The workbench checks every edit here: the schemas come from the trace, and
 * compiling them (ajv generates code) stays on the server, out of the page.
 */
export async function checkResumeFromTrace(context: AppContext, request: ResumeFromTrace) {
  const spans = await loadTraceSource(context, request.source);
  const resumeContext = resumeContextFrom(spans, request.generateSpanId);
  const registered = new Map(context.supervisor.status.tools.map((tool) => [tool.name, tool]));
  const validation = validateResume({ context: resumeContext, respond: request.respond, restart: request.restart, localTools: registered });
  // What genkit would accept but this runner cannot run: checked before anything starts, too.
  const blockers: ResumeIssue[] = [];
  for (const answer of request.restart) {
    if (!registered.has(answer.name)) {
      blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: no tool of that name is registered in tools/ (respond works without it).` });
    }
  }
  if (!resumeContext.model) blockers.push({ code: 'FAILED_PRECONDITION', message: 'The interrupted generate did not record which model it called.' });
  else if (!context.supervisor.status.models.includes(resumeContext.model)) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(resumeContext.model) });
  return { resumeContext, registered, validation, blockers };
}

/**
 * Resumes an interrupted generate from any loaded trace — live, captured, saved — with the
 * local tools: the answers are checked first (nothing runs when a rule is broken), the
 * recorded history is sent as it was, and the new generate becomes a run of its own whose
 * trace links to the interrupts it answered. The loaded trace is never modified.
 */
export async function resumeFromTrace(context: AppContext, request: ResumeFromTrace): Promise<{ run: RunSession; warnings: ResumeIssue[] }> {
  const { resumeContext, registered, validation, blockers } = await checkResumeFromTrace(context, request);
  if (validation.errors.length > 0) throw new LoopscopeError('INVALID_ARGUMENT', `genkit would refuse this resume: ${describeIssues(validation.errors)}`);
  if (blockers.length > 0) throw new LoopscopeError('FAILED_PRECONDITION', describeIssues(blockers));
  if (validation.warnings.length > 0 && !request.confirmWarnings) {
    throw new LoopscopeError('FAILED_PRECONDITION', `Confirm these warnings first: ${describeIssues(validation.warnings)}`);
  }
  const model = resumeContext.model as string;
  const run = context.runs.create({ label: `resume of ${model}`, resumeOf: request.source });
  if ('traceIds' in request.source) context.runs.noteAnsweredBy(request.source.traceIds, run.runId);
  void context.supervisor
    .generate({
      runId: run.runId,
      scenario: '',
      model,
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
