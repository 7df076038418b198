import { choiceOfGenkitModel } from '../../../contract/provider';
import type { ResumeIssue } from '../../../contract/resume-answers';
import { unavailableModelMessage } from '../../../loop/model-availability';
import { answerLink, NO_RECORDED_MODEL, providerBlocker, type ResumeTarget, type ResumeTargetOptions } from '../../resume-target';
import { GENKIT_DIALECT_ID } from '../read/dialect-id';

/**
 * A genkit JS call is resumed in a node runner on its recorded model and history, offering only the
 * tools registered in tools/: a restart needs its tool there (respond works without it).
 */
export function genkitResumeTarget({ facts, context, request }: ResumeTargetOptions): ResumeTarget {
  const registered = new Map((facts.toolsByRuntime[GENKIT_DIALECT_ID] ?? []).map((tool) => [tool.name, tool]));
  const blockers: ResumeIssue[] = [];
  for (const answer of request.restart) {
    if (!registered.has(answer.name)) {
      blockers.push({ code: 'FAILED_PRECONDITION', request: answer.name, message: `Cannot restart ${answer.name}: no tool of that name is registered in tools/ (respond works without it).` });
    }
  }
  // A model of a provider plugin (`openai-compatible/<model>`, `googleai/<model>`) resolves in the runner through that plugin.
  const real = context.model ? choiceOfGenkitModel(context.model) : undefined;
  const realBlocker = real ? providerBlocker({ facts, choice: real }) : undefined;
  if (!context.model) blockers.push(NO_RECORDED_MODEL);
  else if (realBlocker) blockers.push(realBlocker);
  else if (!real && !facts.models.includes(context.model)) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  return {
    runsIn: 'node-runner',
    localTools: registered,
    signsApprovals: false,
    blockers,
    command: (validation) => ({
      scenario: '',
      model: context.model,
      // Only tools registered here can be offered; the model may still ask for others (NOT_FOUND).
      tools: context.tools.map((tool) => tool.name).filter((name) => registered.has(name)),
      messages: validation.payload.messages,
      resume: { respond: request.respond, restart: request.restart },
      answers: answerLink(context),
    }),
  };
}
