import path from 'node:path';
import { LoopscopeError } from '../../../errors';
import { unavailableModelMessage } from '../../../loop/model-availability';
import type { ResumeIssue } from '../../../loop/resume-model';
import type { AnswerHereOptions, AnswerHereResult } from '../../answer-here';
import { validateResume } from '../../validate-resume';

/**
 * A genkit JS resume in this process: real genkit with the tools of the tools folder and the
 * recorded scripted model (`scripted/<scenario>`; any other model is refused), spans captured
 * in memory. A restart needs its tool registered there (respond never does).
 */
export async function genkitAnswerHere(options: AnswerHereOptions): Promise<AnswerHereResult> {
  const { context, request, where } = options;
  const { respond, restart } = request;
  if ((request.approve?.length ?? 0) + (request.deny?.length ?? 0) > 0) {
    throw new LoopscopeError('INVALID_ARGUMENT', '--approve and --deny answer AI SDK approvals; this is a genkit trace: answer its interrupts with --respond or --restart.');
  }
  // Pure checks first: a broken rule costs no genkit import.
  const first = validateResume({ context, respond, restart });
  if (first.errors.length > 0) return { refused: first };
  const model = context.model;
  if (!model) throw new LoopscopeError('FAILED_PRECONDITION', 'The interrupted generate did not record which model it called, so it cannot be resumed.');
  const { startInProcessCapture } = await import('../../../runner/in-process-capture');
  const capture = await startInProcessCapture({ serviceName: 'loopscope-cli' });
  try {
    // Imported only now (after the capture is registered): `graph` never pays for genkit.
    const [{ genkit }, { loadToolModules }, { loadScenarios }, { isGenkitScenario }, { defineScriptedModel }, { runGenerate }] = await Promise.all([
      import('genkit/beta'),
      import('../run/load-tools'),
      import('../../../runner/scenario'), import('../read/genkit-scenario'),
      import('../run/scripted-model'),
      import('../run/run-generate'),
    ]);
    const ai = genkit({});
    const tools = await loadToolModules(ai, where.toolsDir);
    const scenarioList = await loadScenarios(where.scenariosDir);
    // Only genkit scenarios define a genkit model.
    const genkitScenarios = scenarioList.scenarios.filter(isGenkitScenario);
    for (const scenario of genkitScenarios) defineScriptedModel(ai, scenario);
    for (const problem of [...tools.problems, ...scenarioList.problems.map((problem) => ({ ...problem, file: `scenarios/${problem.file}` }))]) {
      options.warn(`loopscope: warning: tools/${problem.file} was skipped: ${problem.message}\n`);
    }
    const registered = new Map(tools.tools.map((tool) => [tool.name, tool]));
    const validation = validateResume({ context, respond, restart, localTools: registered });
    const unregistered: ResumeIssue[] = restart
      .filter((answer) => !registered.has(answer.name))
      .map((answer) => ({
        code: 'FAILED_PRECONDITION',
        request: answer.ref ? `${answer.name}#${answer.ref}` : answer.name,
        message: `Cannot restart ${answer.name}: no tool of that name is registered in ${shown(where.toolsDir)}/ (respond works without it).`,
      }));
    if (unregistered.length > 0) return { refused: { errors: unregistered, warnings: validation.warnings } };
    if (!(await ai.registry.lookupAction(`/model/${model}`))) throw new LoopscopeError('FAILED_PRECONDITION', unavailableModelMessage(model));
    // genkit pitfalls (docs/interrupt-model.md §7) are run, not refused: reproducing them is the point.
    for (const issue of validation.warnings) options.warn(`loopscope: warning: ${issue.message}\n`);

    await capture.take(); // whatever loading traced is not part of the resume
    const result = await runGenerate({
      ai,
      scenarios: new Map(genkitScenarios.map((scenario) => [scenario.name, scenario])),
      command: {
        type: 'generate',
        requestId: 'cli',
        runId: 'cli',
        scenario: '',
        model,
        // Only tools registered here can be offered; the model may still ask for others (NOT_FOUND).
        tools: context.tools.map((tool) => tool.name).filter((name) => registered.has(name)),
        messages: context.messages,
        resume: { respond, restart },
        answers: { traceId: context.traceId, spanId: context.spanId },
      },
      toolTimeoutMs: where.toolTimeoutMs,
    });
    const captured = await capture.take();
    if (captured.spans.length === 0) throw new LoopscopeError('INTERNAL', `The resume recorded no spans${result.failure ? ` (genkit: ${result.failure.message})` : ''}.`);
    return {
      spans: captured.spans,
      started: captured.started,
      ...(result.failure ? { failure: `genkit failed the resume: ${result.failure.message}` } : {}),
      headline: `Resumed the interrupted generate of trace ${context.traceId}`,
    };
  } finally {
    await capture.shutdown().catch(() => undefined);
  }
}

/** A folder as the user would type it: relative inside the project, absolute outside. */
function shown(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? folder : relative;
}
