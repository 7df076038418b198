import type { ResumeContextRequest, ResumeContextView } from '../contract/resume-context';
import { exampleFromSchema } from '../resume/example-from-schema';
import { resumeContextFrom } from '../resume/resume-context';
import type { AppContext } from './app-context';
import { loadTraceSource } from './trace-source';

/**
 * What the resume workbench shows of an interrupted generate: its requests and where each
 * stands, the tools it offered, and for each request an output to start from (built from
 * the tool's output schema). Read from the same spans `POST /api/resume/check` reads.
 * @throws LoopscopeError NOT_FOUND (no such source), and resumeContextFrom's errors (no interrupted generate there).
 */
export async function resumeContextView(context: Pick<AppContext, 'store'>, request: ResumeContextRequest): Promise<ResumeContextView> {
  const resume = resumeContextFrom(await loadTraceSource(context, request.source), request.generateSpanId);
  return {
    traceId: resume.traceId,
    spanId: resume.spanId,
    model: resume.model,
    tools: resume.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema })),
    requests: resume.requests.map((request) => ({
      name: request.name,
      ref: request.ref,
      input: request.input,
      state: request.state,
      interruptMetadata: request.interruptMetadata,
      pendingOutput: request.pendingOutput,
      outputExample: exampleFromSchema(resume.tools.find((tool) => tool.name === request.name)?.outputSchema) ?? {},
    })),
  };
}
