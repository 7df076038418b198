import { z } from 'genkit';
import { defineTools } from '../lib/runtimes/genkit-js/run/define-tools';

/**
 * A tool that takes the whole process down. Tools run in Loopscope's runner process, not
 * in the server: the run is marked failed, a fresh runner starts, the server stays up.
 */
export default defineTools((ai) => [
  ai.defineTool(
    {
      name: 'exitProcess',
      description: 'Calls process.exit — the worst thing a tool can do.',
      inputSchema: z.object({ code: z.number().int().min(0).max(255) }),
      outputSchema: z.object({ exited: z.boolean() }),
    },
    async ({ code }) => {
      process.exit(code);
    },
  ),
]);
