import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { loadScenarios } from '../../../runner/scenario';
import { checkAiSdkScenario } from './check-ai-sdk-scenario';
import { loadAiSdkTools } from './load-ai-sdk-tools';

const shippedCatalog = () => loadAiSdkTools(path.resolve('tools', 'ai-sdk'));

describe('checkAiSdkScenario', () => {
  it('every shipped AI SDK scenario matches tools/ai-sdk/', async () => {
    const catalog = await shippedCatalog();
    const { scenarios } = await loadScenarios(path.resolve('tools', 'scenarios'));
    const aiSdk = scenarios.filter((scenario): scenario is AiSdkScenario => scenario.runtime === 'ai-sdk');
    expect(aiSdk.length).toBe(14);
    expect(aiSdk.map((scenario) => [scenario.name, checkAiSdkScenario({ scenario, catalog })]).filter(([, problems]) => problems.length > 0)).toEqual([]);
  });

  it('names each field that points at nothing', async () => {
    const scenario: AiSdkScenario = {
      runtime: 'ai-sdk',
      name: 'broken',
      title: 'T',
      description: 'D',
      prompt: 'P',
      tools: ['getWeather', 'getWether'],
      script: [{ toolCalls: [{ name: 'getWeather', ref: 'w-1' }] }],
      toolApproval: { transferMoney: 'user-approval', getWeather: 'policy' },
      repairs: [{ ref: 'w-9', input: {} }],
      resumes: [{ approve: [{ toolName: 'getWeather', toolCallId: 'w-2' }], respond: [{ toolName: 'askUser', toolCallId: 'w-1', output: {} }] }],
    };
    expect(checkAiSdkScenario({ scenario, catalog: await shippedCatalog() })).toEqual([
      'tools.1: no module in tools/ai-sdk/ defines "getWether"',
      'toolApproval.transferMoney: the scenario does not offer "transferMoney"',
      'toolApproval.getWeather: "policy" needs a toolApproval.getWeather function exported by the module that defines it',
      'repairs.0.ref: the script makes no call "w-9"',
      'resumes.0.approve.0: the script makes no call getWeather#w-2',
      'resumes.0.respond.0: the script makes no call askUser#w-1',
    ]);
  });
});
