import { OPENAI_COMPATIBLE_PROVIDER, type RealModelChoice } from '../../../contract/provider';
import { scenarioOfScriptedModel } from '../../../contract/scenario';
import type { ResumeIssue } from '../../../contract/resume-answers';
import { unavailableModelMessage } from '../../../loop/model-availability';
import { answerLink, NO_RECORDED_MODEL, providerBlocker, type ResumeTarget, type ResumeTargetOptions } from '../../resume-target';
import { AI_SDK_DIALECT_ID } from '../read/dialect-id';

/** An AI SDK call runs again as its scenario's next `generateText` (its tools, approvals, step limit), on the rebuilt messages. */
export function aiSdkResumeTarget({ facts, context, request }: ResumeTargetOptions): ResumeTarget {
  const local = new Map((facts.toolsByRuntime[AI_SDK_DIALECT_ID] ?? []).map((tool) => [tool.name, tool]));
  const scripted = context.model ? scenarioOfScriptedModel(context.model) : undefined;
  // A run of a scenario on the endpoint records the endpoint's model id and, as `functionId`, the scenario's name.
  // @ai-sdk/otel records `openai-compatible.chat` as the well-known `gen_ai.provider.name` "openai" (its mapProviderName).
  const fromEndpoint = context.modelProvider === 'openai' || context.modelProvider?.startsWith(OPENAI_COMPATIBLE_PROVIDER) === true;
  const real: RealModelChoice | undefined = context.model && !scripted && fromEndpoint ? { kind: 'openai-compatible', model: context.model } : undefined;
  const name = scripted ?? (real ? context.callName : undefined);
  const scenario = facts.scenarios.find((candidate) => candidate.runtime === AI_SDK_DIALECT_ID && candidate.name === name);
  const blockers: ResumeIssue[] = [];
  const realBlocker = real ? providerBlocker({ facts, choice: real }) : undefined;
  if (!context.model) blockers.push(NO_RECORDED_MODEL);
  else if (realBlocker) blockers.push(realBlocker);
  else if (!scenario) blockers.push({ code: 'FAILED_PRECONDITION', message: unavailableModelMessage(context.model) });
  for (const answer of request.approve ?? []) {
    const tool = local.get(answer.name);
    if (!tool || tool.handedBack) {
      blockers.push({
        code: 'FAILED_PRECONDITION',
        request: answer.name,
        message: `Cannot approve ${answer.name}: no AI SDK tool of that name with execute is in tools/ai-sdk/, so nothing would run it (deny and respond work without it).`,
      });
    }
  }
  return {
    runsIn: 'node-runner',
    localTools: local,
    signsApprovals: scenario?.runtime === AI_SDK_DIALECT_ID && scenario.approvalSecret === true,
    blockers,
    command: (validation) => ({ scenario: name ?? '', model: context.model, messages: validation.payload.messages, answers: answerLink(context), ...(real ? { provider: real } : {}) }),
  };
}
