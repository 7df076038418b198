import { tool } from 'ai';
import { z } from 'zod';

/**
 * A tool without `execute`: `generateText` cannot run it, so the loop stops and hands the
 * call back to the caller, who answers with a `tool-result` part in the next call.
 */
export default {
  askUser: tool({
    description: 'Asks the person a question and waits for the answer.',
    inputSchema: z.object({ question: z.string(), choices: z.array(z.string()).optional() }),
    outputSchema: z.object({ answer: z.string() }),
  }),
};
