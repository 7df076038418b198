import { LoopscopeError } from '../../../errors';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import type { ScenarioSupport } from '../../runtime-driver';
import { retargetAiSdkAnswer } from '../../retarget-scripted-answer';

/**
 * An AI SDK scenario's run answers with its own scripted approve / deny / respond (no
 * hand-written genkit answer applies); on a real model, aimed at the model's call ids by tool name.
 */
export const aiSdkScriptedAnswer: ScenarioSupport['answerOf'] = ({ scenario, resumes, given, onRealModel, interrupts }) => {
  if (given) throw new LoopscopeError('INVALID_ARGUMENT', `Scenario "${scenario.name}" runs on the AI SDK: it is answered with its scripted approve / deny / respond, not genkit's respond / restart.`);
  const scripted = (scenario as AiSdkScenario).resumes?.[resumes];
  if (!scripted) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${scenario.name}" has no scripted answer for resume ${resumes + 1}.`);
  return { aiSdkAnswers: onRealModel ? retargetAiSdkAnswer({ answer: scripted, interrupts }) : scripted };
};
