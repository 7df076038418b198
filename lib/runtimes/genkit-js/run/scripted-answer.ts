import { isGenkitScenario } from '../read/genkit-scenario';
import { LoopscopeError } from '../../../errors';
import type { ScenarioSupport } from '../../runtime-driver';
import { retargetGenkitAnswer } from '../../retarget-scripted-answer';

/**
 * A genkit scenario's run resumes with the answer given (respond / restart by ref) or the
 * scenario's own scripted answer for this resume; on a real model, aimed at the model's call ids.
 */
export const genkitScriptedAnswer: ScenarioSupport['answerOf'] = ({ scenario, resumes, given, onRealModel, interrupts }) => {
  let answer = given;
  if (!answer) {
    answer = isGenkitScenario(scenario) ? scenario.resumes?.[resumes] : undefined;
    if (!answer) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${scenario.name}" has no scripted answer for resume ${resumes + 1}.`);
    if (onRealModel) answer = retargetGenkitAnswer({ answer, interrupts });
  }
  return { resume: answer };
};
