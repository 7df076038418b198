import { z } from 'genkit';
import { defineTools } from '../lib/runtimes/genkit-js/run/define-tools';

const APPROVAL_LIMIT_USD = 100;

/**
 * A tool that interrupts itself and is resumed by **restart**.
 *
 * `transferMoney` pauses with `ctx.interrupt(metadata)` when the amount needs a human's
 * approval. The caller resumes with `tool.restart(interrupt, resumedMetadata)`: the tool
 * runs **again** and reads `ctx.resumed` to know that this second run is the approved one.
 */
export default defineTools((ai) => [
  ai.defineTool(
    {
      name: 'transferMoney',
      description: `Transfers money. Amounts over ${APPROVAL_LIMIT_USD} USD need a human's approval.`,
      inputSchema: z.object({ to: z.string(), amountUsd: z.number().positive() }),
      outputSchema: z.object({ status: z.enum(['done', 'rejected']), to: z.string(), amountUsd: z.number(), approvedBy: z.string().optional() }),
    },
    async (input, ctx) => {
      if (input.amountUsd > APPROVAL_LIMIT_USD && !ctx.resumed) {
        // Throws a ToolInterruptError: genkit ends the generate with finishReason "interrupted".
        ctx.interrupt({ reason: 'approval-required', limitUsd: APPROVAL_LIMIT_USD, amountUsd: input.amountUsd });
      }
      const resumed = ctx.resumed as { approved?: boolean; approvedBy?: string } | true | undefined;
      if (resumed && resumed !== true && resumed.approved === false) {
        return { status: 'rejected' as const, to: input.to, amountUsd: input.amountUsd };
      }
      const approvedBy = resumed && resumed !== true ? resumed.approvedBy : undefined;
      return { status: 'done' as const, to: input.to, amountUsd: input.amountUsd, approvedBy };
    },
  ),
  ai.defineTool(
    {
      name: 'lookupOrder',
      description: 'Looks up an order by id.',
      inputSchema: z.object({ orderId: z.string() }),
      outputSchema: z.object({ orderId: z.string(), customer: z.string(), totalUsd: z.number() }),
    },
    async ({ orderId }) => ({ orderId, customer: 'Ada Lovelace', totalUsd: 240 }),
  ),
]);
