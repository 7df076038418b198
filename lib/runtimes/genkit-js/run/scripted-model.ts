import type { GenkitBeta } from 'genkit/beta';
import { scriptedModelName, type GenkitScenario } from '../../../runner/scenario';
import { fillScriptText } from '../../../runner/script-text';

/**
 * Defines the real genkit model that plays a scenario's script.
 *
 * The model is stateless: which turn to play is the number of model messages already in
 * the request's history. That makes a resume (whose history holds the interrupted model
 * message) continue the script exactly where the first generate stopped, in any process.
 */
export function defineScriptedModel(ai: GenkitBeta, scenario: GenkitScenario) {
  return ai.defineModel(
    {
      name: scriptedModelName(scenario.name),
      label: `Scripted: ${scenario.title}`,
      supports: { tools: true, multiturn: true, systemRole: true, media: false, output: ['text'] },
    },
    async (request) => {
      const turnIndex = request.messages.filter((message) => message.role === 'model').length;
      const turn = scenario.script[turnIndex];
      if (!turn) {
        throw new Error(
          `The scripted model of scenario "${scenario.name}" has no turn ${turnIndex + 1}: its script has ` +
            `${scenario.script.length} turn(s). Add a turn to tools/scenarios/${scenario.name}.json.`,
        );
      }
      // `{{NAME#REF.field}}` in the text: what that tool returned in this history (script-text.ts).
      const outputOf = ({ name, ref }: { name: string; ref: string }) => {
        const responses = request.messages.flatMap((message) => message.content.flatMap((part) => (part.toolResponse ? [part.toolResponse] : [])));
        const response = responses.filter((candidate) => candidate.name === name && candidate.ref === ref).at(-1);
        return response ? { found: true, output: response.output } : { found: false };
      };
      const content = [
        ...(turn.text !== undefined ? [{ text: fillScriptText(turn.text, outputOf) }] : []),
        ...(turn.toolRequests ?? []).map((toolRequest) => ({
          toolRequest: { name: toolRequest.name, ref: toolRequest.ref, input: toolRequest.input },
        })),
      ];
      return {
        message: { role: 'model' as const, content },
        finishReason: 'stop' as const,
      };
    },
  );
}
