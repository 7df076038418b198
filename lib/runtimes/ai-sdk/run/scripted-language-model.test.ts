import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { scriptedLanguageModel } from './scripted-language-model';

const scenario: Pick<AiSdkScenario, 'name' | 'script'> = {
  name: 'scripted-test',
  script: [
    {
      text: 'Looking it up.',
      toolCalls: [
        { name: 'double', ref: 'double-1', input: { x: 2 } },
        { name: 'search', ref: 'search-1', input: { q: 'x' }, providerExecuted: { result: { hits: 3 } } },
      ],
    },
    { text: 'Twice 2 is 4.' },
  ],
};

const tools = {
  double: tool({ inputSchema: z.object({ x: z.number() }), execute: async ({ x }) => ({ doubled: x * 2 }) }),
  search: { type: 'provider' as const, id: 'test.search' as const, isProviderExecuted: true as const, args: {}, inputSchema: z.object({ q: z.string() }), outputSchema: z.object({ hits: z.number() }) },
};

describe('scriptedLanguageModel', () => {
  it('plays turn by turn inside the real generateText loop: ids from refs, tool-calls then stop', async () => {
    const result = await generateText({ model: scriptedLanguageModel(scenario), tools, prompt: 'Double 2.', stopWhen: stepCountIs(5) });
    expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.text).toBe('Twice 2 is 4.');
    const first = result.steps[0].content;
    expect(first.filter((part) => part.type === 'tool-call').map((part) => [part.toolCallId, part.toolName, part.input, part.providerExecuted ?? false])).toEqual([
      ['double-1', 'double', { x: 2 }, false],
      ['search-1', 'search', { q: 'x' }, true],
    ]);
    // The provider's result arrives with the call; the local tool's result comes from execute.
    expect(first.filter((part) => part.type === 'tool-result').map((part) => [part.toolCallId, part.output])).toEqual([
      ['search-1', { hits: 3 }],
      ['double-1', { doubled: 4 }],
    ]);
  });

  it('is stateless: the turn is the number of assistant messages in the prompt', async () => {
    const model = scriptedLanguageModel(scenario);
    const later = await generateText({
      model,
      messages: [
        { role: 'user', content: 'Double 2.' },
        { role: 'assistant', content: 'earlier turn' },
      ],
    });
    expect(later.text).toBe('Twice 2 is 4.');
    expect(later.finishReason).toBe('stop');
  });

  it('streams the same turns through streamText', async () => {
    const result = streamText({ model: scriptedLanguageModel(scenario), tools, prompt: 'Double 2.', stopWhen: stepCountIs(5) });
    expect(await result.text).toBe('Twice 2 is 4.');
    const steps = await result.steps;
    expect(steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(steps[0].toolResults.map((part) => part.toolCallId).sort()).toEqual(['double-1', 'search-1']);
  });

  it('past the end of its script it fails naming the scenario file', async () => {
    const model = scriptedLanguageModel({ name: 'short', script: [{ text: 'only turn' }] });
    await expect(generateText({ model, maxRetries: 0, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] })).rejects.toThrow(
      'The scripted model of scenario "short" has no turn 2: its script has 1 turn(s). Add a turn to tools/scenarios/short.json.',
    );
  });
});
