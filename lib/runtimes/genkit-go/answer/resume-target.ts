import type { ResumeIssue } from '../../../contract/resume-answers';
import { scenarioOfScriptedModel } from '../../../contract/scenario';
import { unavailableModelMessage } from '../../../loop/model-availability';
import { answerLink, NO_RECORDED_MODEL, type ResumeTarget, type ResumeTargetOptions } from '../../resume-target';
import { GENKIT_GO_DIALECT_ID } from '../read/dialect-id';

/** A genkit Go call runs again in the Go runner, as its scenario's next generate (its tools), on the recorded history with the answers. */
export function goResumeTarget({ facts, context, request }: ResumeTargetOptions): ResumeTarget {
  const name = context.model ? scenarioOfScriptedModel(context.model) : undefined;
  const scenario = facts.scenarios.find((candidate) => candidate.runtime === GENKIT_GO_DIALECT_ID && candidate.name === name);
  const known = facts.toolsByRuntime[GENKIT_GO_DIALECT_ID];
  const tools = known ? new Map(known.map((tool) => [tool.name, { resumeSchema: tool.resumeSchema, resumeType: tool.resumeType }])) : undefined;
  const blockers: ResumeIssue[] = [];
  if (!context.model) blockers.push(NO_RECORDED_MODEL);
  else if (!scenario) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  // The scenario's generate offers only Go tools registered in tools/go/: a restart runs one.
  for (const answer of request.restart) {
    if (tools && !tools.has(answer.name)) {
      blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: no Go tool of that name is registered in tools/go/ (respond works without it).` });
    }
  }
  return {
    runsIn: 'runtime-host',
    localTools: tools ?? new Map(),
    signsApprovals: false,
    blockers,
    command: () => ({ scenario: name ?? '', messages: context.messages, resume: { respond: request.respond, restart: request.restart }, answers: answerLink(context) }),
  };
}
