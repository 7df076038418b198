import { tool } from 'ai';
import { z } from 'zod';

/** A search tool a model may call again and again: the step-limit scenario stops the loop with `stopWhen`. */
export default {
  searchDocs: tool({
    description: 'Searches the product documentation.',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => ({ query, results: [{ pageId: 'page-14', title: 'Rotating API keys' }] }),
  }),
};
