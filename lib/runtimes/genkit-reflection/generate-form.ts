/**
 * The Apps page's Generate form for a genkit JS app, as data: which of the app's actions it
 * offers (its `/model/…` and `/tool/…` actions), and the `POST /api/runs` body a filled form
 * sends — `/util/generate` with `GenerateActionOptions` (`model`, one user message, `tools` by
 * name) and, for Step / Breakpoints, the run's mode. Problems name the field they are about.
 */
import type { RunActionRequest, RuntimeAction } from '../../contract/runtimes';
import type { RunMode } from '../../contract/run-mode';
import { GENERATE_ACTION_KEY } from './generate-input';

export type GenerateModeKind = RunMode['kind'];

export interface GenerateDraft {
  /** A model action's name (`demo/trip-model`). */
  model: string;
  /** Tool action names, in the app's order. */
  tools: string[];
  prompt: string;
  mode: GenerateModeKind;
  /** Breakpoints mode: the tools to pause before (a subset of `tools`). */
  breakTools: string[];
  breakEveryModelCall: boolean;
  /** Breakpoints mode: model calls to pause before, as typed (`1, 3`). */
  breakModelTurns: string;
}

export interface GenerateFormProblem {
  field: 'model' | 'prompt' | 'breakpoints' | 'breakModelTurns';
  message: string;
}

/** Loopscope's own actions in the app (the step plugin's `loopscope/hand-written` model plays answers given at a pause): not the app's to pick. */
const isLoopscopeOwn = (action: RuntimeAction) => action.name.startsWith('loopscope/');

/** The models and tools a generate in this app can use, as the form lists them. */
export function generateChoices(actions: readonly RuntimeAction[]): { models: RuntimeAction[]; tools: RuntimeAction[] } {
  const own = actions.filter((action) => !isLoopscopeOwn(action));
  return { models: own.filter((action) => action.type === 'model'), tools: own.filter((action) => action.type === 'tool') };
}

/** True when the app can run a generate at all (genkit JS lists `/util/generate`). */
export function canGenerate(actions: readonly RuntimeAction[]): boolean {
  return actions.some((action) => action.key === GENERATE_ACTION_KEY) && actions.some((action) => action.type === 'model');
}

export function emptyGenerateDraft(models: readonly RuntimeAction[]): GenerateDraft {
  return { model: models[0]?.name ?? '', tools: [], prompt: '', mode: 'run', breakTools: [], breakEveryModelCall: false, breakModelTurns: '' };
}

function parseTurns(text: string): number[] | undefined {
  const pieces = text.split(/[\s,]+/).filter(Boolean);
  const turns = pieces.map(Number);
  return turns.every((turn) => Number.isInteger(turn) && turn >= 1) ? [...new Set(turns)].sort((a, b) => a - b) : undefined;
}

/**
 * The request a filled form sends, or what is wrong with it. `stepPlugin` false (the app has no
 * Loopscope plugin) sends a Run without `mode`: it answers when the generate ended.
 */
export function generateRequestOf(options: { runtimeId: string; draft: GenerateDraft; stepPlugin: boolean | undefined }): { request?: RunActionRequest; problems: GenerateFormProblem[] } {
  const { draft } = options;
  const problems: GenerateFormProblem[] = [];
  if (!draft.model) problems.push({ field: 'model', message: 'model: pick one of the app’s models.' });
  if (!draft.prompt.trim()) problems.push({ field: 'prompt', message: 'prompt: write what to ask the model.' });
  let mode: RunMode | undefined;
  if (draft.mode === 'step') mode = { kind: 'step' };
  else if (draft.mode === 'breakpoints') {
    const turns = parseTurns(draft.breakModelTurns);
    if (!turns) problems.push({ field: 'breakModelTurns', message: 'model calls: whole numbers from 1, separated by commas (e.g. 1, 3).' });
    const tools = draft.breakTools.filter((tool) => draft.tools.includes(tool));
    const modelTurns = draft.breakEveryModelCall ? ('all' as const) : (turns ?? []);
    if (turns && tools.length === 0 && modelTurns !== 'all' && modelTurns.length === 0) {
      problems.push({ field: 'breakpoints', message: 'breakpoints: pick a tool or a model call to pause before (or choose Step).' });
    }
    mode = { kind: 'breakpoints', breakpoints: { tools, modelTurns } };
  } else if (options.stepPlugin) mode = { kind: 'run' };
  if (problems.length > 0) return { problems };
  const input = { model: draft.model, messages: [{ role: 'user', content: [{ text: draft.prompt }] }], ...(draft.tools.length > 0 ? { tools: draft.tools } : {}) };
  return { request: { runtimeId: options.runtimeId, action: GENERATE_ACTION_KEY, input, ...(mode ? { mode } : {}) }, problems };
}
