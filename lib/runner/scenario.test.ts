import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGenkitScenario } from '../runtimes/genkit-js/read/genkit-scenario';
import { loadScenarios, scenarioRuntime } from './scenario';

const scratch = path.resolve('.loopscope-test', `scenarios-${process.pid}-${Date.now()}`);

const base = { title: 'T', description: 'D', prompt: 'P', tools: ['getWeather'] };
const FILES: Record<string, unknown> = {
  'old-genkit.json': { name: 'old-genkit', ...base, script: [{ text: 'hi' }] },
  'named-genkit.json': { name: 'named-genkit', runtime: 'genkit-js', ...base, script: [{ toolRequests: [{ name: 'getWeather', ref: 'w-1' }] }] },
  'good-ai-sdk.json': {
    name: 'good-ai-sdk',
    runtime: 'ai-sdk',
    ...base,
    script: [{ toolCalls: [{ name: 'getWeather', ref: 'w-1', input: { city: 'Lisbon' } }] }, { text: 'ok' }],
    toolApproval: { getWeather: 'user-approval' },
    resumes: [{ approve: [{ toolName: 'getWeather', toolCallId: 'w-1' }] }],
  },
  // A genkit turn shape in an AI SDK file: the AI SDK's words are toolCalls.
  'ai-sdk-genkit-words.json': { name: 'ai-sdk-genkit-words', runtime: 'ai-sdk', ...base, script: [{ toolRequests: [{ name: 'getWeather', ref: 'w-1' }] }] },
  'ai-sdk-bad-approval.json': { name: 'ai-sdk-bad-approval', runtime: 'ai-sdk', ...base, script: [{ text: 'x' }], toolApproval: { getWeather: 'maybe' } },
  'ai-sdk-deny-without-reason.json': { name: 'ai-sdk-deny-without-reason', runtime: 'ai-sdk', ...base, script: [{ text: 'x' }], resumes: [{ deny: [{ toolName: 'getWeather', toolCallId: 'w-1' }] }] },
  'ai-sdk-empty-resume.json': { name: 'ai-sdk-empty-resume', runtime: 'ai-sdk', ...base, script: [{ text: 'x' }], resumes: [{}] },
  'unknown-runtime.json': { name: 'unknown-runtime', runtime: 'langchain', ...base, script: [{ text: 'x' }] },
  // genkit validation is as before: a genkit request needs its ref.
  'genkit-no-ref.json': { name: 'genkit-no-ref', ...base, script: [{ toolRequests: [{ name: 'getWeather' }] }] },
};

beforeAll(async () => {
  await mkdir(scratch, { recursive: true });
  for (const [file, value] of Object.entries(FILES)) await writeFile(path.join(scratch, file), JSON.stringify(value));
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

describe('loadScenarios with two runtimes', () => {
  it('loads genkit files with or without a runtime and AI SDK files; a bad file is a problem naming file and field', async () => {
    const { scenarios, problems } = await loadScenarios(scratch);
    expect(scenarios.map((scenario) => [scenario.name, scenarioRuntime(scenario), isGenkitScenario(scenario)]).sort()).toEqual([
      ['good-ai-sdk', 'ai-sdk', false],
      ['named-genkit', 'genkit-js', true],
      ['old-genkit', 'genkit-js', true],
    ]);
    const byFile = Object.fromEntries(problems.map((problem) => [problem.file, problem.message]));
    expect(byFile).toEqual({
      'ai-sdk-bad-approval.json': expect.stringMatching(/^toolApproval\.getWeather: /),
      'ai-sdk-deny-without-reason.json': expect.stringMatching(/^resumes\.0\.deny\.0\.reason: /),
      'ai-sdk-empty-resume.json': 'resumes.0: a resume needs at least one approve, deny or respond answer',
      'ai-sdk-genkit-words.json': 'script.0: a turn needs text or at least one tool call',
      'unknown-runtime.json': expect.stringMatching(/^runtime: Invalid discriminator value/),
      'genkit-no-ref.json': expect.stringMatching(/^script\.0\.toolRequests\.0\.ref: /),
    });
  });

  it('the shipped folder loads without problems; AI SDK scenarios come after the genkit ones', async () => {
    const { scenarios, problems } = await loadScenarios(path.resolve('tools', 'scenarios'));
    expect(problems).toEqual([]);
    const runtimes = scenarios.map(scenarioRuntime);
    const firstAiSdk = runtimes.indexOf('ai-sdk');
    expect(firstAiSdk).toBeGreaterThan(0);
    expect(runtimes.slice(firstAiSdk).every((runtime) => runtime === 'ai-sdk')).toBe(true);
    expect(scenarios.filter((scenario) => !isGenkitScenario(scenario)).every((scenario) => scenario.name.startsWith('ai-sdk-'))).toBe(true);
  });
});
