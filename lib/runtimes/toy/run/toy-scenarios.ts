/**
 * The toy loop's scenarios: a prompt and the script its scripted model plays, turn by turn. They
 * live in code, not in tools/scenarios/ (that folder's file format names the registered runtimes only).
 */
import { scriptedModelName } from '../../../contract/scenario';
import type { ToyModelRequest, ToyReply } from '../read/toy-words';

export interface ToyScenario {
  name: string;
  prompt: string;
  /** The model's replies, one per turn, across the first call and every answer. */
  script: ToyReply[];
}

export const TOY_SCENARIOS: readonly ToyScenario[] = [
  {
    name: 'toy-weather',
    prompt: 'Will it rain in Oslo? Book the trip if it is worth it.',
    script: [
      // Two tools in one turn.
      { requests: [{ name: 'lookup', ref: 'l1', input: { q: 'rain' } }, { name: 'forecast', ref: 'f1', input: { days: 2 } }] },
      // A tool that fails beside one that pauses the loop.
      { requests: [{ name: 'notify', ref: 'n1', input: { to: 'ops' } }, { name: 'approve', ref: 'a1', input: { spend: 900 } }] },
      { text: 'Rain, 3 mm; grey for two days. The trip is answered.' },
    ],
  },
];

/** The scripted model of a scenario: the reply of the turn the history is at (one per model message in it). */
export function scriptedToyModel(scenario: ToyScenario): { name: string; answer(request: ToyModelRequest): Promise<ToyReply> } {
  return {
    name: scriptedModelName(scenario.name),
    async answer(request) {
      const turn = request.messages.filter((message) => message.role === 'model').length;
      const reply = scenario.script[turn];
      if (!reply) throw new Error(`The scripted model of ${scenario.name} has no turn ${turn + 1} (its script has ${scenario.script.length}).`);
      return structuredClone(reply);
    },
  };
}
