import { tool, type ToolApprovalStatus } from 'ai';
import { z } from 'zod';

const TransferInputSchema = z.object({ to: z.string(), amountUsd: z.number().positive() });

/** Above this amount a person approves the transfer; at or below it the policy approves it. */
const AUTO_APPROVE_LIMIT_USD = 100;

/**
 * A tool with side effects that scenarios put behind an approval (`toolApproval` of
 * `generateText`): it runs only once approved, in the call that carries the answer.
 */
export default {
  transferMoney: tool({
    description: 'Sends money to a person. Needs approval.',
    inputSchema: TransferInputSchema,
    execute: async ({ to, amountUsd }) => ({ status: 'sent', to, amountUsd, confirmation: `TX-${to.length}${Math.round(amountUsd)}` }),
  }),
};

/**
 * Approval policies, by tool name: a scenario whose `toolApproval` says `"policy"` for a tool
 * uses its function here (the AI SDK's per-tool `SingleToolApprovalFunction`).
 */
export const toolApproval = {
  transferMoney: (input: z.infer<typeof TransferInputSchema>): ToolApprovalStatus =>
    input.amountUsd <= AUTO_APPROVE_LIMIT_USD
      ? { type: 'approved', reason: `at most ${AUTO_APPROVE_LIMIT_USD} USD: approved by policy` }
      : { type: 'user-approval', reason: `over ${AUTO_APPROVE_LIMIT_USD} USD: a person must approve` },
};
