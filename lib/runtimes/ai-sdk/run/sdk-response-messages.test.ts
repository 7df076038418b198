import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import bank from '../../../../tools/ai-sdk/bank';
import weather from '../../../../tools/ai-sdk/weather';
import { answerMessages } from './ai-sdk-answers';
import { scriptedLanguageModel } from './scripted-language-model';

/**
 * What `ai@7` returns as a call's history, pinned because every caller that continues a call
 * (the runner, a replay, a repro) builds the next call's messages from it: `response.messages`
 * is the final step's alone (it is `finalStep.response`; ai 7.0.0 "limit response messages in
 * StepResult to messages created in that step"), `responseMessages` every step's, after the
 * results of the tools an answer approved (they run before step 1, in no step).
 */
const scenario: Pick<AiSdkScenario, 'name' | 'script'> = {
  name: 'response-messages-test',
  script: [
    { toolCalls: [{ name: 'getWeather', ref: 'weather-1', input: { city: 'Lisbon' } }] },
    { toolCalls: [{ name: 'convertTemperature', ref: 'convert-1', input: { celsius: 24 } }] },
    { toolCalls: [{ name: 'transferMoney', ref: 'transfer-bob', input: { to: 'Bob', amountUsd: 500 } }] },
    { toolCalls: [{ name: 'transferMoney', ref: 'transfer-dave', input: { to: 'Dave', amountUsd: 900 } }] },
    { text: 'Done.' },
  ],
};
const settings = { model: scriptedLanguageModel(scenario), tools: { ...weather, ...bank }, toolApproval: { transferMoney: 'user-approval' as const }, stopWhen: stepCountIs(20) };

/** Each message as `role[part:toolCallId,…]`. */
const shape = (messages: readonly ModelMessage[]) =>
  messages.map((message) => `${message.role}[${typeof message.content === 'string' ? 'text' : message.content.map((part) => `${part.type}${'toolCallId' in part ? `:${part.toolCallId}` : ''}`).join(',')}]`);

describe('generateText (ai@7): the history of a call that made several steps', () => {
  it('response.messages holds the final step’s messages only; responseMessages every step’s', async () => {
    const result = await generateText({ ...settings, messages: [{ role: 'user', content: 'Pay Bob.' }] });
    expect(result.steps).toHaveLength(3);
    expect(shape(result.response.messages)).toEqual(['assistant[tool-call:transfer-bob,tool-approval-request:transfer-bob]']);
    expect(shape(result.responseMessages)).toEqual([
      'assistant[tool-call:weather-1]',
      'tool[tool-result:weather-1]',
      'assistant[tool-call:convert-1]',
      'tool[tool-result:convert-1]',
      'assistant[tool-call:transfer-bob,tool-approval-request:transfer-bob]',
    ]);
    expect(result.responseMessages).toEqual(result.steps.flatMap((step) => step.response.messages));
  });

  it('an answering call: the approved tool’s result leads responseMessages and is in no step’s response.messages', async () => {
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Pay Bob.' }];
    const first = await generateText({ ...settings, messages: prompt });
    const answered = await generateText({ ...settings, messages: answerMessages({ messages: [...prompt, ...first.responseMessages], answers: { approve: [{ toolName: 'transferMoney', toolCallId: 'transfer-bob' }] } }) });
    expect(answered.steps).toHaveLength(1);
    expect(shape(answered.responseMessages)).toEqual(['tool[tool-result:transfer-bob]', 'assistant[tool-call:transfer-dave,tool-approval-request:transfer-dave]']);
    expect(shape(answered.steps.flatMap((step) => step.response.messages))).toEqual(['assistant[tool-call:transfer-dave,tool-approval-request:transfer-dave]']);
  });
});
