import { z } from 'genkit';
import { defineTools } from '../lib/runtimes/genkit-js/run/define-tools';

/**
 * An interrupt tool answered by **respond**.
 *
 * `defineInterrupt` makes a tool whose only behaviour is to pause; its metadata says
 * `restartable: false`. The caller answers with `askUser.respond(interrupt, output)`: the
 * output is validated against the output schema and the tool never runs again.
 */
export default defineTools((ai) => [
  ai.defineInterrupt({
    name: 'askUser',
    description: 'Asks the user a question and waits for the answer.',
    inputSchema: z.object({ question: z.string(), choices: z.array(z.string()).optional() }),
    outputSchema: z.object({ answer: z.string() }),
    // Recorded on the tool span as genkit:metadata:interrupt.
    requestMetadata: (input) => ({ kind: 'question', choiceCount: input.choices?.length ?? 0 }),
  }),
]);
