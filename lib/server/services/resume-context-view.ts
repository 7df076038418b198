import type { ResumeContextRequest, ResumeContextView } from '../../contract/resume-context';
import { DIALECTS, dialectTitle } from '../../runtimes/index';
import { exampleFromSchema } from '../../loop/example-from-schema';
import { resumeContextFrom } from '../../runtimes/resume-context';
import type { AppContext } from '../app-context-ports';
import { driverOf } from '../../runtimes/drivers';
import { runnerFacts } from '../runners/runner-facts';
import { loadTraceSource } from '../traces/trace-source';
import { aiSdkAppResumeTarget } from '../attach/ai-sdk-app-resume';

/**
 * What the resume workbench shows of a paused call: its requests and where each stands (for
 * the AI SDK, what each waits for — an approval or a result — from the trace or the local
 * tools), the tools it offered, and for each request an output to start from (built from the
 * tool's output schema, the trace's or the local tool's). Read from the same spans
 * `POST /api/resume/check` reads.
 * @throws LoopscopeError NOT_FOUND (no such source), and resumeContextFrom's errors (no paused call there).
 */
export async function resumeContextView(context: Pick<AppContext, 'store' | 'supervisor' | 'goRunner' | 'providers'> & Partial<Pick<AppContext, 'aiSdkApps'>>, request: ResumeContextRequest): Promise<ResumeContextView> {
  const resume = resumeContextFrom(await loadTraceSource(context, request.source), { generateSpanId: request.generateSpanId });
  // The app that made the call waits for the answer: its own tools say what each call waits for.
  const appWaits = aiSdkAppResumeTarget({ apps: context.aiSdkApps, context: resume });
  // A runtime Loopscope only reads has no runner side: the trace's own tool definitions are all there is.
  const answer = driverOf(resume.dialect)?.answer;
  const localTools = appWaits
    ? appWaits.localTools
    : answer
      ? answer.target({ facts: await runnerFacts({ context, runtime: resume.dialect }), context: resume, request: { source: request.source, respond: [], restart: [] } }).localTools
      : new Map();
  const rules = DIALECTS.find((dialect) => dialect.id === resume.dialect)?.resume;
  const outputSchemaOf = (name: string) => resume.tools.find((tool) => tool.name === name)?.outputSchema ?? localTools.get(name)?.outputSchema;
  return {
    traceId: resume.traceId,
    spanId: resume.spanId,
    dialect: resume.dialect,
    runtimeTitle: dialectTitle(resume.dialect),
    answerKinds: rules?.answerKinds ?? [],
    snippetLanguage: rules?.snippetLanguage ?? 'TypeScript',
    ...(rules?.elsewhere ? { runsElsewhere: rules.elsewhere.why } : {}),
    ...(appWaits ? { sendsToApp: { app: appWaits.appName, runId: appWaits.runId } } : {}),
    model: resume.model,
    tools: resume.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? localTools.get(tool.name)?.outputSchema })),
    requests: resume.requests.map((request) => {
      const waiting = (request.state === 'interrupted' ? rules?.waitingFor?.(request, localTools) : undefined) ?? {};
      return {
        name: request.name,
        ref: request.ref,
        input: request.input,
        state: request.state,
        interruptMetadata: request.interruptMetadata,
        pendingOutput: request.pendingOutput,
        ...(waiting.waitingFor ? { waitingFor: waiting.waitingFor, waitingEvidence: waiting.evidence } : {}),
        ...(request.state === 'interrupted' && rules?.defaultKind ? { defaultKind: rules.defaultKind(request, waiting.waitingFor) } : {}),
        outputExample: exampleFromSchema(outputSchemaOf(request.name)) ?? {},
        ...(request.state === 'interrupted' && rules?.resumedExample ? { resumedExample: rules.resumedExample({ request, localTools, exampleOf: exampleFromSchema }) } : {}),
        ...(request.state === 'interrupted' && rules?.resumedAs?.(request, localTools) ? { resumedAs: rules.resumedAs(request, localTools) } : {}),
        ...(request.pausedAs ? { pausedAs: request.pausedAs } : {}),
        ...(request.state === 'interrupted' && rules?.valueExample ? { valueExample: rules.valueExample({ request, exampleOf: exampleFromSchema }) } : {}),
      };
    }),
  };
}
