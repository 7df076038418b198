/**
 * The fixed helpers an exported repro carries, as source text: the table type of recorded
 * answers, the scripted model's and the stubs' playback, the step runner that prints each
 * outcome, and the printer of what the model got. Each is written only when the file uses it.
 */
import { UNPRINTABLE_PATTERN_SOURCE } from '../../../spans/printable-text';

/** The types of the per-call table of recorded answers. */
export function recordedTypesSource(options: { models: boolean; stubs: boolean; modelErrors: boolean }): string[] {
  const lines = ['/** What the recording holds for each call of the chain below. */', 'interface Recorded {'];
  if (options.models) {
    lines.push("  /** The model's responses, in the order genkit asked for them. */", `  modelResponses: ${options.modelErrors ? '(ModelResponseData | { error: string })' : 'ModelResponseData'}[];`);
  }
  if (options.stubs) lines.push('  /** Every run of a stubbed tool: what it returned, how it interrupted (`true`: without metadata) or what it threw. */', '  toolRuns: ToolRun[];');
  lines.push('}');
  if (options.stubs) lines.push('', 'type ToolRun = { tool: string; input: unknown } & ({ returns: unknown } | { interrupts: Record<string, unknown> | true } | { throws: string });');
  return lines;
}

export function nextModelResponseSource(options: { modelErrors: boolean }): string[] {
  return [
    "/** The current call's next recorded model response (genkit runs the tool loop around it). */",
    'function nextModelResponse(): ModelResponseData {',
    '  const response = recorded[current].modelResponses.shift();',
    '  if (!response) throw new Error("The recording has no further model response for this call: the run went another way.");',
    ...(options.modelErrors ? ['  if ("error" in response) throw new Error(response.error);'] : []),
    '  return response;',
    '}',
  ];
}

export function playToolSource(): string[] {
  return [
    '/**',
    " * A stub's answer: the current call's next recorded run of that tool with an equal input",
    ' * (else its next run), played back — returned, interrupted with its metadata, or thrown.',
    ' */',
    'function playTool(tool: string, input: unknown, ctx: { interrupt(metadata?: Record<string, unknown>): never }): unknown {',
    '  const runs = recorded[current].toolRuns;',
    '  const same = runs.findIndex((run) => run.tool === tool && JSON.stringify(run.input) === JSON.stringify(input));',
    '  const at = same >= 0 ? same : runs.findIndex((run) => run.tool === tool);',
    '  if (at < 0) throw new Error(`The recording has no further run of ${tool} in this call: the run went another way.`);',
    '  const [run] = runs.splice(at, 1);',
    '  if ("interrupts" in run) ctx.interrupt(run.interrupts === true ? undefined : run.interrupts);',
    '  if ("throws" in run) throw new Error(run.throws);',
    '  return run.returns;',
    '}',
  ];
}

/**
 * The step runner. `indexed`: it also says which call is running, for the recorded table;
 * `toolAlone`: some calls run a tool on their own and return its output, not a response.
 */
export function stepSource(options: { indexed: boolean; toolAlone: boolean }): string[] {
  return [
    '/**',
    ' * Runs one call of the chain and prints how it ended, in the words Loopscope uses:',
    ' * "interrupted (paused for an answer)", "finished (stop)", "failed: …".',
    ' */',
    `async function step<T>(${options.indexed ? 'index: number, ' : ''}label: string, call: () => Promise<T>): Promise<T | undefined> {`,
    ...(options.indexed ? ['  current = index;'] : []),
    '  try {',
    '    const result = await call();',
    ...(options.toolAlone
      ? ['    // A tool run on its own returns its output: it finished.', '    const finishReason = (result as { finishReason?: string } | undefined)?.finishReason ?? "stop";']
      : ['    const { finishReason } = result as GenerateResponse;']),
    '    console.log(`${printable(label)}: ${finishReason === "interrupted" ? "interrupted (paused for an answer)" : `finished (${printable(String(finishReason))})`}`);',
    '    return result;',
    '  } catch (error) {',
    '    const message = error instanceof Error ? error.message : String(error);',
    '    console.log(`${printable(label)}: failed: ${message === "" ? "(empty message)" : printable(firstLine(message))}`);',
    '    return undefined;',
    '  }',
    '}',
    '',
    ...printHelpersSource(),
  ];
}

/**
 * `firstLine` and `printable` of a generated repro (both runtimes'): how it prints an error and
 * recorded text, as Loopscope shows them.
 */
export function printHelpersSource(): string[] {
  return [
    "/** The first line of an error message, cut at 200 characters, as Loopscope shows it (schema errors run to dozens of lines). */",
    'function firstLine(message: string): string {',
    '  const line = message.split("\\n")[0];',
    '  const cut = line.length > 200 ? `${line.slice(0, 199)}…` : line;',
    '  return cut.length < message.length ? `${cut.replace(/…$/, "")} …` : cut;',
    '}',
    '',
    '/** Recorded text as printed: characters a terminal would act on are shown as \\uXXXX escapes (as Loopscope prints them). */',
    'function printable(text: string): string {',
    `  return text.replace(new RegExp(${JSON.stringify(UNPRINTABLE_PATTERN_SOURCE)}, "g"), (character) => \`\\\\u\${character.charCodeAt(0).toString(16).padStart(4, "0")}\`);`,
    '}',
  ];
}

/** Prints, after a resume, each answered request's input next to the response genkit sent the model (bugs 2 and 4 show only there). */
export function printToolResponsesSource(): string[] {
  return [
    '/** Prints what genkit sent the model for each request a resume answered: the request input next to the response. */',
    'function printToolResponses(response: GenerateResponse | undefined): void {',
    '  const messages = response?.messages ?? [];',
    '  const at = messages.findIndex((message) => message.role === "tool" && message.metadata?.resumed);',
    '  if (at < 1) return;',
    '  const requests = messages[at - 1].content.flatMap((part) => (part.toolRequest ? [part.toolRequest] : []));',
    '  for (const part of messages[at].content) {',
    '    if (!part.toolResponse) continue;',
    '    const { name, ref, output } = part.toolResponse;',
    '    // Without a ref, the n-th response of a tool goes with its n-th request.',
    '    const request = requests.find((candidate) => candidate.name === name && candidate.ref === ref);',
    '    if (request) requests.splice(requests.indexOf(request), 1);',
    '    console.log(printable(`  the model got: ${name}${ref ? `#${ref}` : ""} ${JSON.stringify(request?.input)} → ${JSON.stringify(output)}`));',
    '  }',
    '}',
  ];
}
