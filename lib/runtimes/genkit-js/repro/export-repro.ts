/**
 * Writes a recording as one standalone TypeScript file that reproduces the run with plain
 * genkit and nothing from Loopscope — to attach to a bug report (issue 6, item 6). It follows
 * the replay's rules (run-replay.ts): a scripted model per recorded model name answers each
 * generate call's model requests with that call's recorded responses, in order; tool stubs
 * play back the recorded tool runs; the chain of generate calls is written out as code, a
 * resume sending its parent's `response.messages` and a retry the very same array.
 *
 * Recorded strings reach the file only through `codeLiteral` (code-literal.ts): never into a
 * comment, a template literal or an identifier (identifiers come from code-identifiers.ts).
 */
import { CodeIdentifiers } from '../../../replay/code-identifiers';
import { codeLiteral } from '../../../replay/code-literal';
import { GENKIT_BUG_TITLES, recordedGenkitBugs, type RecordedGenkitBug } from '../read/recorded-bugs';
import type { GenerateStep, Recording, RecordedToolDefinition, RecordedToolExecution, ReplayStep } from '../read/recording';
import { recordingConstantSource, reproHeaderSource, type ReproHeaderInput } from './repro-header-source';
import { nextModelResponseSource, playToolSource, printToolResponsesSource, recordedTypesSource, stepSource } from './repro-helper-source';
import { reproFileName } from '../../../replay/repro-file-name';

/** A module of the local tools folder, for `useLocalTools`. */
export interface LocalToolModule {
  /** How the written file imports it (`./tools/bank`). */
  importPath: string;
  /** The recorded tools it defines. */
  tools: string[];
}

export interface ExportReproOptions {
  title?: string;
  /** Where the recording came from (a file path), named in the header. */
  source?: string;
  /** The name the file will be saved under, for the run instruction (default `repro.ts`). */
  fileName?: string;
  /** Import the local tool modules (each `export default (ai) => …`) instead of stubbing their tools. */
  useLocalTools?: boolean;
  /** The modules to import with `useLocalTools`; recorded tools none of them defines stay stubs. */
  toolModules?: LocalToolModule[];
}

const GENERATE_OPTION_KEYS = ['tools', 'config', 'maxTurns', 'returnToolRequests', 'output', 'docs', 'toolChoice'] as const;

export { reproFileName };

/**
 * Top-level names the file defines itself (with the `r<N>` / `history<N>` variables, which no
 * identifier made from a name can be: those end in `Tool` or `Tools`).
 */
const RESERVED_IDENTIFIERS = ['genkit', 'GenerateResponse', 'ModelResponseData', 'ai', 'recording', 'recorded', 'current', 'Recorded', 'ToolRun', 'nextModelResponse', 'playTool', 'step', 'firstLine', 'printToolResponses', 'main'];

const bareName = (tool: unknown) => (typeof tool === 'string' ? tool.replace(/^\/(tool|tool\.v2|prompt)\//, '') : tool);

/** The recorded response a scripted model gives back: without latency, as the replay does. */
function modelResponse(call: GenerateStep['modelCalls'][number]): Record<string, unknown> {
  if (call.errorMessage !== undefined) return { error: call.errorMessage };
  const { latencyMs: _latency, ...response } = call.response ?? {};
  return response;
}

function toolRun(execution: RecordedToolExecution): Record<string, unknown> {
  const { name: tool, input, outcome } = execution;
  if (outcome.kind === 'interrupt') return { tool, input, interrupts: outcome.metadata ?? true };
  if (outcome.kind === 'error') return { tool, input, throws: outcome.message };
  return { tool, input, returns: outcome.output };
}

interface Plan {
  recording: Recording;
  /** `r1`, `r2`… for the generate steps whose response later code reads. */
  responseVariables: Map<number, string>;
  /** `history2`… for the resumes a later step retries with the same array. */
  historyVariables: Map<number, string>;
  /** Parents continued by more than one resume: each gets its own copy (genkit rewrites what a resume is given). */
  branchingParents: Set<number>;
  bugs: RecordedGenkitBug[];
  stubbed: RecordedToolDefinition[];
  localModules: LocalToolModule[];
  models: string[];
  /** Whether the file needs the per-call table of recorded answers (a scripted model or a stub). */
  hasRecordedTable: boolean;
  /** Some recorded model call failed: the scripted model throws its error there. */
  modelErrors: boolean;
  /** The identifiers of the file's tool constants and module imports, unique whatever the names. */
  identifiers: CodeIdentifiers;
}

function generateNumber(recording: Recording, index: number): number {
  return recording.steps.slice(0, index + 1).filter((step) => step.kind === 'generate').length;
}

function planExport(recording: Recording, options: ExportReproOptions): Plan {
  const responseVariables = new Map<number, string>();
  const historyVariables = new Map<number, string>();
  const continuers = new Map<number, number>();
  const bugs = recordedGenkitBugs(recording);
  const name = (index: number) => `r${generateNumber(recording, index)}`;
  for (const step of recording.steps) {
    if (step.kind !== 'generate' || step.continues === undefined) continue;
    responseVariables.set(step.continues, name(step.continues));
    if (step.retryOf !== undefined) historyVariables.set(step.retryOf, `history${generateNumber(recording, step.retryOf)}`);
    else continuers.set(step.continues, (continuers.get(step.continues) ?? 0) + 1);
  }
  for (const bug of bugs) if (bug.showsInToolResponses) responseVariables.set(bug.step, name(bug.step));
  const localModules = options.useLocalTools ? (options.toolModules ?? []).filter((module) => module.tools.some((tool) => recording.toolDefinitions.has(tool))) : [];
  const local = new Set(localModules.flatMap((module) => module.tools));
  const stubbed = [...recording.toolDefinitions.values()].filter((definition) => !local.has(definition.name));
  return {
    recording,
    responseVariables,
    historyVariables,
    branchingParents: new Set([...continuers].filter(([, count]) => count > 1).map(([parent]) => parent)),
    bugs,
    stubbed,
    localModules,
    models: [...recording.models],
    hasRecordedTable: recording.models.size > 0 || stubbed.length > 0,
    modelErrors: recording.steps.some((step) => step.kind === 'generate' && step.modelCalls.some((call) => call.errorMessage !== undefined)),
    identifiers: new CodeIdentifiers(RESERVED_IDENTIFIERS),
  };
}

function headerInput(plan: Plan, options: ExportReproOptions): ReproHeaderInput {
  return {
    recording: plan.recording,
    bugs: plan.bugs,
    usesLocalTools: plan.localModules.length > 0,
    stubbed: plan.stubbed.map((tool) => tool.name),
    title: options.title,
    source: options.source,
    fileName: options.fileName,
  };
}

function imports(plan: Plan): string[] {
  const usesGenerateResponse = plan.recording.steps.every((step) => step.kind === 'generate') || plan.bugs.some((bug) => bug.showsInToolResponses);
  const types = [...(usesGenerateResponse ? ['GenerateResponse'] : []), ...(plan.models.length > 0 ? ['ModelResponseData'] : [])];
  return [
    `import { ${['genkit', ...types.map((type) => `type ${type}`)].join(', ')} } from "genkit/beta";`,
    ...plan.localModules.map((module) => `import ${moduleIdentifier(plan, module)} from ${codeLiteral(module.importPath)};`),
  ];
}

function moduleIdentifier(plan: Plan, module: LocalToolModule): string {
  const base = module.importPath.split('/').pop()!.replace(/\.(ts|mts|js|mjs)$/, '');
  return plan.identifiers.for(base, 'Tools');
}

function recordedTable(plan: Plan): string[] {
  if (!plan.hasRecordedTable) return [];
  const models = plan.models.length > 0;
  const stubs = plan.stubbed.length > 0;
  const stubbed = new Set(plan.stubbed.map((tool) => tool.name));
  const lines = [...recordedTypesSource({ models, stubs, modelErrors: plan.modelErrors }), '', 'const recorded: Recorded[] = ['];
  for (const step of plan.recording.steps) {
    const entry: Record<string, unknown> = {};
    if (models) entry.modelResponses = step.kind === 'generate' ? step.modelCalls.map(modelResponse) : [];
    if (stubs) entry.toolRuns = step.toolExecutions.filter((execution) => stubbed.has(execution.name)).map(toolRun);
    // The index, not the label: a label can hold a recorded tool name.
    lines.push(`  // call ${step.index}`, `  ${codeLiteral(entry, '  ')},`);
  }
  lines.push('];', '', '/** The call of the chain running now: the scripted model and the stubs answer from its entry. */', 'let current = 0;');
  return lines;
}

/** One scripted model per recorded model name; all answer from the current call's responses, as in the replay. */
function models(plan: Plan): string[] {
  if (plan.models.length === 0) return [];
  const lines = [...nextModelResponseSource({ modelErrors: plan.modelErrors })];
  for (const model of plan.models) {
    lines.push('', 'ai.defineModel(', `  { name: ${codeLiteral(model)}, supports: { tools: true, multiturn: true, systemRole: true, media: true } },`, '  async () => nextModelResponse(),', ');');
  }
  return lines;
}

/** One stub per recorded tool, with its recorded JSON schemas. */
function stubs(plan: Plan): string[] {
  if (plan.stubbed.length === 0) return [];
  const alone = new Set(plan.recording.steps.flatMap((step) => (step.kind === 'tool' ? [step.name] : [])));
  const lines = playToolSource();
  for (const tool of plan.stubbed) {
    const config: string[] = [`    name: ${codeLiteral(tool.name)},`, `    description: ${codeLiteral(tool.description ?? '', '    description: ')},`];
    if (tool.inputSchema !== undefined) config.push(`    inputJsonSchema: ${codeLiteral(tool.inputSchema, '    inputJsonSchema: ')},`);
    if (tool.outputSchema !== undefined) config.push(`    outputJsonSchema: ${codeLiteral(tool.outputSchema, '    outputJsonSchema: ')},`);
    // A tool run on its own is called directly by the chain: it needs a name.
    const constant = alone.has(tool.name) ? `const ${plan.identifiers.for(tool.name, 'Tool')} = ` : '';
    lines.push('', `${constant}ai.defineTool(`, '  {', ...config, '  },', `  async (input, ctx) => playTool(${codeLiteral(tool.name)}, input, ctx),`, ');');
  }
  return lines;
}

function runners(plan: Plan): string[] {
  const lines = stepSource({ indexed: plan.hasRecordedTable, toolAlone: plan.recording.steps.some((step) => step.kind === 'tool') });
  if (plan.bugs.some((bug) => bug.showsInToolResponses)) lines.push('', ...printToolResponsesSource());
  return lines;
}

/** Indentation of the options inside `ai.generate({…})` in the chain. */
const OPTION_INDENT = '      ';

/** `      key: <literal>,` — one option of a generate call. */
function option(key: string, value: unknown): string {
  const head = `${OPTION_INDENT}${key}: `;
  return `${head}${codeLiteral(value, head)},`;
}

/**
 * The messages a generate step sends, by the replay's rules (run-replay.ts `messagesFor`), and
 * the statements that must come before its call.
 */
function messagesExpression(plan: Plan, step: GenerateStep): { statements: string[]; expression: string } {
  const literal = (messages: unknown) => codeLiteral(Array.isArray(messages) ? messages : [], `${OPTION_INDENT}messages: `);
  if (step.options.resume === undefined) return { statements: [], expression: literal(step.options.messages) };
  if (step.retryOf !== undefined) {
    return { statements: [`  // A retry of call ${step.retryOf}: the same resume, with the same messages array.`], expression: plan.historyVariables.get(step.retryOf)! };
  }
  if (step.continues === undefined) return { statements: ['  // The call it resumes is not in the recording: it sends the recorded history.'], expression: literal(step.history) };
  const messages = `${plan.responseVariables.get(step.continues)!}!.messages`;
  const statements: string[] = [];
  let expression = messages;
  if (plan.branchingParents.has(step.continues)) {
    statements.push(`  // Several resumes start from call ${step.continues}; each gets its own copy, as genkit 1.42 rewrites the messages a resume is given (bug 3).`);
    expression = `structuredClone(${messages})`;
  }
  const history = plan.historyVariables.get(step.index);
  if (history === undefined) return { statements, expression };
  statements.push('  // A later call retries this resume with the same array, as a caller retrying does.', `  const ${history} = ${expression};`);
  return { statements, expression: history };
}

function generateCall(plan: Plan, step: GenerateStep): string[] {
  const options = step.options;
  const messages = messagesExpression(plan, step);
  const fields: string[] = [`${OPTION_INDENT}model: ${codeLiteral(step.model)},`, `${OPTION_INDENT}messages: ${messages.expression},`];
  for (const key of GENERATE_OPTION_KEYS) {
    if (options[key] === undefined) continue;
    fields.push(option(key, key === 'tools' && Array.isArray(options.tools) ? options.tools.map(bareName) : options[key]));
  }
  if (options.resume !== undefined) fields.push(option('resume', options.resume));
  const target = plan.responseVariables.get(step.index);
  return [
    ...messages.statements,
    `  ${target ? `const ${target} = ` : ''}await ${stepCall(plan, step)} () =>`,
    '    ai.generate({',
    ...fields,
    '    }),',
    '  );',
  ];
}

/** `step(0, "generate 1",` — the start of a call of the step helper. */
function stepCall(plan: Plan, step: ReplayStep): string {
  return `step(${plan.hasRecordedTable ? `${step.index}, ` : ''}${codeLiteral(step.label)},`;
}

function toolAloneCall(plan: Plan, step: Extract<ReplayStep, { kind: 'tool' }>): string[] {
  if (plan.stubbed.some((tool) => tool.name === step.name)) {
    const head = `  await ${stepCall(plan, step)} () => ${plan.identifiers.for(step.name, 'Tool')}(`;
    return [`${head}${codeLiteral(step.input, head)}));`];
  }
  // A local tool: looked up by its action key, as genkit's registry holds it.
  return [
    `  await ${stepCall(plan, step)} async () => {`,
    `    const tool = await ai.registry.lookupAction(${codeLiteral(`/tool/${step.name}`)});`,
    `    return tool!(${codeLiteral(step.input, '    return tool!(')});`,
    '  });',
  ];
}

function chain(plan: Plan): string[] {
  const lines = ['/** The recorded calls, in causal order. */', 'async function main(): Promise<void> {'];
  for (const module of plan.localModules) lines.push(`  await ${moduleIdentifier(plan, module)}(ai);`);
  plan.recording.steps.forEach((step, position) => {
    if (position > 0 || plan.localModules.length > 0) lines.push('');
    lines.push(...(step.kind === 'generate' ? generateCall(plan, step) : toolAloneCall(plan, step)));
    for (const bug of plan.bugs) {
      if (bug.step !== step.index || !bug.showsInToolResponses) continue;
      lines.push(`  // genkit 1.42 bug ${bug.bug} (${GENKIT_BUG_TITLES[bug.bug]}) shows in what the model was sent:`, `  printToolResponses(${plan.responseVariables.get(step.index)});`);
    }
  });
  lines.push('}', '', 'main();');
  return lines;
}

/**
 * One standalone TypeScript file reproducing the recorded run with plain genkit (`genkit/beta`):
 * run with `npx tsx`, it prints one line per call in the words of `describeOutcome`
 * ("generate 2 (resume): failed: …") and exits 0.
 */
export function exportRepro(recording: Recording, options: ExportReproOptions = {}): string {
  const plan = planExport(recording, options);
  const about = headerInput(plan, options);
  const sections = [reproHeaderSource(about), imports(plan), recordingConstantSource(about), ['const ai = genkit({});'], recordedTable(plan), models(plan), stubs(plan), runners(plan), chain(plan)];
  return `${sections
    .filter((section) => section.length > 0)
    .map((section) => section.join('\n'))
    .join('\n\n')}\n`;
}
