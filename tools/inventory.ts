import { z } from 'genkit';
import { defineTools } from '../lib/runtimes/genkit-js/run/define-tools';

/**
 * Tools that go wrong, to see how a failure differs from an interrupt: a thrown error fails
 * the whole generate call (genkit only catches ToolInterruptError).
 */
export default defineTools((ai) => [
  ai.defineTool(
    {
      name: 'checkInventory',
      description: 'Checks stock for a product. Its backing service is down.',
      inputSchema: z.object({ sku: z.string() }),
      outputSchema: z.object({ sku: z.string(), inStock: z.number() }),
    },
    async ({ sku }) => {
      throw new Error(`Inventory service returned 503 for ${sku}`);
    },
  ),
  ai.defineTool(
    {
      name: 'searchDocs',
      description: 'Searches the product documentation and returns the best page id.',
      inputSchema: z.object({ query: z.string() }),
      outputSchema: z.object({ pageId: z.string(), title: z.string() }),
    },
    async ({ query }) => ({ pageId: `page-${query.length}`, title: `About ${query}` }),
  ),
  ai.defineTool(
    {
      name: 'readPage',
      description: 'Reads one documentation page.',
      inputSchema: z.object({ pageId: z.string() }),
      outputSchema: z.object({ pageId: z.string(), text: z.string() }),
    },
    async ({ pageId }) => ({ pageId, text: `Contents of ${pageId}.` }),
  ),
  ai.defineTool(
    {
      name: 'generateReport',
      description: 'Builds a slow report; takes `seconds` to finish.',
      inputSchema: z.object({ seconds: z.number().min(0).max(3600) }),
      outputSchema: z.object({ rows: z.number() }),
    },
    async ({ seconds }) => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return { rows: 42 };
    },
  ),
]);
