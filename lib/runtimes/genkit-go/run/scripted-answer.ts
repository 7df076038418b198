import type { GenkitGoScenario } from '../../../contract/scenario';
import { LoopscopeError } from '../../../errors';
import type { ScenarioSupport } from '../../runtime-driver';

/** A genkit Go scenario's run resumes with the answer given or its scripted one (response and restart parts by ref). */
export const goScriptedAnswer: ScenarioSupport['answerOf'] = ({ scenario, resumes, given }) => {
  const answer = given ?? (scenario as GenkitGoScenario).resumes?.[resumes];
  if (!answer) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${scenario.name}" has no scripted answer for resume ${resumes + 1}.`);
  return { resume: answer };
};
