import { scenarioOfScriptedModel } from '../../../contract/scenario';
import type { ResumeIssue } from '../../../contract/resume-answers';
import { unavailableModelMessage } from '../../../loop/model-availability';
import { answerLink, NO_RECORDED_MODEL, type ResumeTarget, type ResumeTargetOptions } from '../../resume-target';

/**
 * A paused toy call is answered in a node runner by its scenario's next toy loop call (its
 * scripted model plays on), on the recorded history with the checked answers. The runner must
 * have that model: a runner without the toy engine lists no `scripted/toy-…` model.
 */
export function toyResumeTarget({ facts, context, request }: ResumeTargetOptions): ResumeTarget {
  const scenario = context.model ? scenarioOfScriptedModel(context.model) : undefined;
  const blockers: ResumeIssue[] = [];
  if (!context.model) blockers.push(NO_RECORDED_MODEL);
  else if (!scenario || !facts.models.includes(context.model)) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  return {
    runsIn: 'node-runner',
    localTools: new Map(),
    signsApprovals: false,
    blockers,
    command: (validation) => ({
      scenario: scenario ?? '',
      model: context.model,
      messages: validation.payload.messages,
      resume: { respond: request.respond },
      answers: answerLink(context),
    }),
  };
}
