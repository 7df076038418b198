import { describe, expect, it } from 'vitest';
import { canGenerate, emptyGenerateDraft, generateChoices, generateRequestOf, type GenerateDraft } from './generate-form';

const actions = [
  { key: '/flow/planTrip', name: 'planTrip', type: 'flow' },
  { key: '/tool/getWeather', name: 'getWeather', type: 'tool' },
  { key: '/tool/bookTrip', name: 'bookTrip', type: 'tool' },
  { key: '/model/loopscope/hand-written', name: 'loopscope/hand-written', type: 'model' },
  { key: '/model/demo/trip-model', name: 'demo/trip-model', type: 'model' },
  { key: '/util/generate', name: 'generate', type: 'util' },
];

const filled = (change: Partial<GenerateDraft>): GenerateDraft => ({ ...emptyGenerateDraft(generateChoices(actions).models), prompt: 'Plan a trip to Kyoto for 4 nights', tools: ['getWeather', 'bookTrip'], ...change });

describe('the Apps page Generate form', () => {
  it('offers the app’s models and tools (not the step plugin’s hand-written model), the first model picked', () => {
    const { models, tools } = generateChoices(actions);
    expect(models.map((model) => model.name)).toEqual(['demo/trip-model']);
    expect(tools.map((tool) => tool.name)).toEqual(['getWeather', 'bookTrip']);
    expect(emptyGenerateDraft(models).model).toBe('demo/trip-model');
    expect(canGenerate(actions)).toBe(true);
    expect(canGenerate(actions.filter((action) => action.type !== 'util'))).toBe(false);
  });

  it('sends one user message with the tools by name; Run without the plugin has no mode, with it a run mode', () => {
    const plain = generateRequestOf({ runtimeId: 'r1', draft: filled({}), stepPlugin: false });
    expect(plain.problems).toEqual([]);
    expect(plain.request).toEqual({
      runtimeId: 'r1',
      action: '/util/generate',
      input: { model: 'demo/trip-model', messages: [{ role: 'user', content: [{ text: 'Plan a trip to Kyoto for 4 nights' }] }], tools: ['getWeather', 'bookTrip'] },
    });
    expect(generateRequestOf({ runtimeId: 'r1', draft: filled({}), stepPlugin: true }).request?.mode).toEqual({ kind: 'run' });
    expect(generateRequestOf({ runtimeId: 'r1', draft: filled({ mode: 'step' }), stepPlugin: false }).request?.mode).toEqual({ kind: 'step' });
  });

  it('breakpoints: only on offered tools, model calls as typed or every one', () => {
    const draft = filled({ mode: 'breakpoints', breakTools: ['bookTrip', 'askTraveler'], breakModelTurns: '3, 1 3' });
    expect(generateRequestOf({ runtimeId: 'r1', draft, stepPlugin: true }).request?.mode).toEqual({ kind: 'breakpoints', breakpoints: { tools: ['bookTrip'], modelTurns: [1, 3] } });
    const every = filled({ mode: 'breakpoints', breakEveryModelCall: true });
    expect(generateRequestOf({ runtimeId: 'r1', draft: every, stepPlugin: true }).request?.mode).toEqual({ kind: 'breakpoints', breakpoints: { tools: [], modelTurns: 'all' } });
  });

  it('names what is missing or malformed, and sends nothing then', () => {
    const empty = generateRequestOf({ runtimeId: 'r1', draft: { ...filled({ prompt: '  ' }), model: '' }, stepPlugin: true });
    expect(empty.request).toBeUndefined();
    expect(empty.problems.map((problem) => problem.field)).toEqual(['model', 'prompt']);
    const noBreakpoint = generateRequestOf({ runtimeId: 'r1', draft: filled({ mode: 'breakpoints' }), stepPlugin: true });
    expect(noBreakpoint.problems.map((problem) => problem.message)).toEqual(['breakpoints: pick a tool or a model call to pause before (or choose Step).']);
    const badTurns = generateRequestOf({ runtimeId: 'r1', draft: filled({ mode: 'breakpoints', breakModelTurns: '0, two' }), stepPlugin: true });
    expect(badTurns.problems.map((problem) => problem.field)).toEqual(['breakModelTurns']);
  });
});
