import type { Tool } from 'ai';
import { z } from 'zod';

/**
 * A provider-executed tool: the provider runs it and sends the call and its result together
 * (the scripted provider sends the result a scenario scripts). `generateText` never runs it.
 */
const webSearch: Tool<{ query: string }, { results: { title: string; url: string }[] }> = {
  type: 'provider',
  id: 'loopscope-scripted.web_search',
  isProviderExecuted: true,
  args: {},
  inputSchema: z.object({ query: z.string() }),
  outputSchema: z.object({ results: z.array(z.object({ title: z.string(), url: z.string() })) }),
};

export default { webSearch };
