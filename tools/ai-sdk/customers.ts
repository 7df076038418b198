import { dynamicTool } from 'ai';
import { z } from 'zod';

const CustomerQuerySchema = z.object({ customerId: z.string() });

/**
 * A dynamic tool: its input type is unknown when the code is written (as an MCP server's
 * tools are), so `execute` receives `unknown` and checks it itself.
 */
export default {
  lookupCustomer: dynamicTool({
    description: 'Looks a customer up by id (a tool whose schema is known only at run time).',
    inputSchema: CustomerQuerySchema,
    execute: async (input) => {
      const { customerId } = CustomerQuerySchema.parse(input);
      return { customerId, name: 'Ada Lovelace', plan: 'team', since: '2021-03-14' };
    },
  }),
};
