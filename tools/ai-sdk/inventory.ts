import { tool } from 'ai';
import { z } from 'zod';

/**
 * A tool that throws. The AI SDK does not fail the call: the error becomes a `tool-error`
 * part the model reads in the next step, and the loop goes on.
 */
export default {
  checkInventory: tool({
    description: 'Stock level of a product.',
    inputSchema: z.object({ sku: z.string() }),
    execute: async ({ sku }): Promise<{ sku: string; inStock: number }> => {
      throw new Error(`Inventory service returned 503 for ${sku}`);
    },
  }),
};
