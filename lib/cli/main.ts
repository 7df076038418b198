/**
 * The `loopscope` command: `npm run -s loopscope -- <command>`.
 * Exit codes: 0 ok, 1 the check failed, 2 bad usage or unreadable input, 3 (resume --dry-run)
 * part of the answer cannot be checked without running it.
 */
import { errorMessage, LoopscopeError } from '../errors';
import { buildRunGraph } from '../graph/build-run-graph';
import { renderGraphText } from '../graph/render-graph-text';
import { resumeContextFrom } from '../runtimes/resume-context';
import { resumeSnippet, validateResume } from '../runtimes/validate-resume';
import { dialectTitle } from '../runtimes/index';
import { compareRuns, renderComparisonText } from '../graph/compare-runs';
import { loadTraceFile } from '../store/load-trace-file';
import { tryParseJsonLimited } from '../spans/parse-json-limited';
import { resumeVerdictOf, type ResumeVerdict } from '../contract/resume-answers';
import { replayCommand } from './replay-command';
import { reproCommand } from './repro-command';
import type { Span } from '../spans/span';

const USAGE = `Usage: loopscope <command> [options]

Commands:
  graph <file…> [--json]   the run graph of the given trace files (OTLP JSON / JSONL, Genkit TraceData)
  resume <file> [--respond NAME#REF=JSON]… [--restart NAME#REF[=RESUMED_JSON]]…
         [--replace-input NAME#REF=JSON]… [--dry-run] [--json]
  resume <file> [--approve NAME#CALLID[=REASON]]… [--deny NAME#CALLID[=REASON]]…
         [--respond NAME#CALLID=JSON]… [--value NAME#CALLID=JSON]… [--dry-run] [--json]
                           answers the last paused call in the file: a genkit generate's
                           interrupts (respond / restart), an AI SDK call's approvals (approve /
                           deny, the reason in plain text) and handed-back tools (respond), an
                           agent framework's pause (Google ADK, LangGraph, Pydantic AI, the
                           OpenAI Agents SDK, Strands Agents, Mastra: approve / deny / respond, or
                           --value: the resume value itself — each framework takes the kinds its
                           rules name; --dry-run only: the answer is printed as the app's own
                           code, Loopscope does not run those apps).
                           Checks the answers against the runtime's rules first (exit 1 naming each
                           broken rule; nothing runs). --dry-run stops there and prints the
                           payload; it exits 3 when part of the answer cannot be checked
                           without running it (genkit Go: restart data for a typed tool whose
                           resume type the trace does not record), naming each part.
                           Otherwise runs the answer with tools/ (tools/ai-sdk/) and the
                           recorded model (scripted/<scenario>) in real genkit / ai, stores the
                           new trace in LOOPSCOPE_DATA_DIR (default .loopscope/; through a server
                           running on PORT when there is one) and prints the graph of the
                           interrupted trace + the new one (--json: Graph JSON). Saved files are
                           never modified. Exit 0 when genkit returned (finished or interrupted
                           again); 1 when genkit rejected or failed the resume (its message on
                           stderr; the trace is still stored and printed) or a restarted tool is
                           not registered in tools/; 2 when the recorded model is not defined here

  compare <fileA> <fileB> [--json]
                           one scenario's two runs side by side (genkit JS and genkit Go, or any
                           two runs): outcomes, span shapes, wire shapes (part markers); exit 0
                           when nothing differs, 1 naming each difference

  replay <file…> [--live-tools] [--lenient] [--json]
                           replays the recorded run with the runtime that recorded it (genkit
                           JS, the AI SDK, or genkit Go in the Go runner): models answer from the
                           recorded model spans, tools are stubbed from the recorded tool spans
                           (--live-tools: the tools in tools/, tools/ai-sdk/ or tools/go/ run
                           instead and are compared);
                           exit 0 when it matches the recording, 1 at the first divergence
                           (--lenient: record every divergence and go on)

  repro <file…> [--out FILE] [--local-tools]
                           one standalone TypeScript file that reproduces the recorded run with
                           plain genkit (scripted model with the recorded answers, tool stubs from
                           the recording; --local-tools: imports the modules of tools/ instead),
                           printing each call's outcome when run with npx tsx; printed, or
                           written to FILE. Exit 2 on unreadable input

  start [--port N] [--attach DIR]… [-- <app command…>]
                           the Loopscope server with your genkit app attached: the command runs
                           (in this folder) as a supervised child in dev mode, with Loopscope as
                           its telemetry server; without a command, attaches to the apps already
                           running in dev mode here (.genkit/runtimes/). Its flows, tools and
                           models are on the Apps page and at GET /api/runtimes

Options:
  --json      print Graph JSON ({summary, generates, nodes, edges})
  --verbose   print stack traces of errors
  --help      this text
  --version   Loopscope's version (bin/loopscope.js answers it)
`;

class UsageError extends Error {}

/** `NAME#REF=VALUE` (VALUE optional when `valueOptional`). */
function parseAnswer({ text, option, valueOptional }: { text: string; option: string; valueOptional: boolean }): { name: string; ref?: string; value?: unknown } {
  const equals = text.indexOf('=');
  const target = equals < 0 ? text : text.slice(0, equals);
  const [name, ref] = target.split('#');
  if (!name) throw new UsageError(`${option} needs NAME#REF${valueOptional ? '[=JSON]' : '=JSON'}, got "${text}".`);
  if (equals < 0) {
    if (!valueOptional) throw new UsageError(`${option} ${target} needs =JSON after it.`);
    return { name, ref };
  }
  const parsed = tryParseJsonLimited(text.slice(equals + 1));
  if (!parsed.ok) throw new UsageError(`${option} ${target}: the value is ${parsed.problem}.`);
  return { name, ref, value: parsed.value };
}

/** Values of a repeatable option, e.g. `--respond a#1={…} --respond b#2={…}`. */
function optionValues(argv: string[], option: string): string[] {
  const values: string[] = [];
  argv.forEach((argument, index) => {
    if (argument === option) {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${option} needs a value.`);
      values.push(value);
    } else if (argument.startsWith(`${option}=`)) values.push(argument.slice(option.length + 1));
  });
  return values;
}

/** The dry run's last line: what the runtime would do with the answer. */
const VERDICT_LINES: Record<ResumeVerdict, (options: { runtime: string; count: number }) => string> = {
  accepted: ({ runtime }) => `ok: ${runtime} would accept this answer.`,
  refused: ({ runtime, count }) => `${count} rule(s) broken: ${runtime} would refuse this answer.`,
  unchecked: ({ runtime, count }) => `unchecked: ${runtime} may accept or refuse this answer — ${count} part(s) cannot be checked without running it (see above).`,
};

/** The dry run's exit code: 0 accepted, 1 refused, 3 unchecked (neither can be told here). */
const VERDICT_EXIT_CODES: Record<ResumeVerdict, number> = { accepted: 0, refused: 1, unchecked: 3 };

async function resumeCommand({ argv, files, flags }: { argv: string[]; files: string[]; flags: Set<string> }): Promise<number> {
  if (files.length !== 1) throw new UsageError('resume needs exactly one trace file.');
  const respond = optionValues(argv, '--respond').map((text) => parseAnswer({ text, option: '--respond', valueOptional: false })).map((answer) => ({ name: answer.name, ref: answer.ref, output: answer.value }));
  // The reason of an approval is the SDK's free text, not JSON.
  const approval = (option: string) =>
    optionValues(argv, option).map((text) => {
      const equals = text.indexOf('=');
      const [name, ref] = (equals < 0 ? text : text.slice(0, equals)).split('#');
      if (!name || !ref) throw new UsageError(`${option} needs NAME#CALLID[=REASON], got "${text}".`);
      return { name, ref, ...(equals < 0 ? {} : { reason: text.slice(equals + 1) }) };
    });
  const approve = approval('--approve');
  const deny = approval('--deny');
  const values = optionValues(argv, '--value')
    .map((text) => parseAnswer({ text, option: '--value', valueOptional: false }))
    .map((answer) => ({ name: answer.name, ref: answer.ref, value: answer.value }));
  const replaced = new Map(optionValues(argv, '--replace-input').map((text) => parseAnswer({ text, option: '--replace-input', valueOptional: false })).map((answer) => [`${answer.name}#${answer.ref ?? ''}`, answer.value]));
  const restart = optionValues(argv, '--restart')
    .map((text) => parseAnswer({ text, option: '--restart', valueOptional: true }))
    .map((answer) => ({ name: answer.name, ref: answer.ref, resumed: answer.value, replaceInput: replaced.get(`${answer.name}#${answer.ref ?? ''}`) }));
  if (!flags.has('--dry-run')) {
    // Lazy: the run path imports genkit and OpenTelemetry, which `graph` must not pay for.
    const { runResumeCommand } = await import('./resume-command');
    return runResumeCommand({ file: files[0], respond, restart, approve, deny, values, json: flags.has('--json') });
  }
  const context = resumeContextFrom(await loadTraceFile(files[0]));
  const result = validateResume({ context, respond, restart, approve, deny, values });
  const verdict = resumeVerdictOf(result);
  const runtime = dialectTitle(context.dialect);
  if (flags.has('--json')) {
    process.stdout.write(`${JSON.stringify({ ok: verdict === 'accepted', verdict, errors: result.errors, warnings: result.warnings, unchecked: result.unchecked ?? [], payload: result.payload }, null, 2)}\n`);
  } else {
    // A call held by a hook (genkit Go's ToolApproval) is named as held: it waits for an approval, not for the tool.
    // A pause is named in its runtime's words where it has some (ADK's approval required, LangGraph's interrupt).
    const stateOf = (request: (typeof context.requests)[number]) => (request.heldBy ? `held by ${request.heldBy.by}` : request.state === 'interrupted' && request.pausedAs ? `paused: ${request.pausedAs}` : request.state);
    const pending = context.requests.map((request) => `  ${request.name}${request.ref ? `#${request.ref}` : ''}  ${stateOf(request)}${request.interruptMetadata !== undefined ? `  ${JSON.stringify(request.interruptMetadata)}` : ''}`);
    const lines = [`Answer to the paused ${runtime} call in trace ${context.traceId}:`, ...pending];
    for (const issue of result.errors) lines.push(`error ${issue.code}: ${issue.message}`);
    for (const issue of result.warnings) lines.push(`warning: ${issue.message}`);
    for (const issue of result.unchecked ?? []) lines.push(`unchecked: ${issue.message}`);
    for (const note of result.payload.notes ?? []) lines.push(`note: ${note}`);
    lines.push(VERDICT_LINES[verdict]({ runtime, count: verdict === 'refused' ? result.errors.length : (result.unchecked ?? []).length }));
    if (result.payload.answer !== undefined) lines.push(`the answer ${runtime} gets:`, JSON.stringify(result.payload.answer, null, 2));
    else if (result.payload.resume) lines.push('payload (messages + resume parts):', JSON.stringify({ resume: result.payload.resume }, null, 2));
    else lines.push('payload (generateText({ messages }), the last messages):', JSON.stringify(result.payload.messages.slice(-2), null, 2));
    lines.push(`as ${runtime} code:`, resumeSnippet({ context, payload: result.payload }));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return VERDICT_EXIT_CODES[verdict];
}

async function compareCommand(files: string[], flags: Set<string>): Promise<number> {
  if (files.length !== 2) throw new UsageError('compare needs exactly two trace files (A and B).');
  const [a, b] = await Promise.all(files.map(async (file) => ({ label: file, spans: await loadTraceFile(file) })));
  const comparison = compareRuns({ a, b });
  process.stdout.write(flags.has('--json') ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparisonText(comparison));
  return comparison.differences.length === 0 ? 0 : 1;
}

async function graphCommand(files: string[], flags: Set<string>): Promise<number> {
  if (files.length === 0) throw new UsageError('graph needs at least one trace file.');
  const spans: Span[] = [];
  for (const file of files) spans.push(...(await loadTraceFile(file)));
  const graph = buildRunGraph(spans);
  process.stdout.write(flags.has('--json') ? `${JSON.stringify(graph, null, 2)}\n` : renderGraphText(graph));
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'start') {
    // Its own arguments: everything after `--` is the app's, options included.
    const { runStartCommand, StartUsageError } = await import('./start-command');
    try {
      return await runStartCommand({ argv: argv.slice(1), environment: process.env });
    } catch (error) {
      if (!(error instanceof StartUsageError)) throw error;
      process.stderr.write(`loopscope: ${error.message}\n`);
      return 2;
    }
  }
  const flags = new Set(argv.filter((argument) => argument.startsWith('--')).map((argument) => argument.split('=')[0]));
  const valued = new Set(['--respond', '--restart', '--replace-input', '--approve', '--deny', '--value', '--out']);
  // Positional arguments: not options, and not the values that follow a valued option.
  const positional = argv.filter((argument, index) => !argument.startsWith('--') && !(index > 0 && valued.has(argv[index - 1])));
  const [command, ...rest] = positional;
  try {
    if (flags.has('--help') || command === undefined) {
      process.stdout.write(USAGE);
      return command === undefined && !flags.has('--help') ? 2 : 0;
    }
    const known = new Set(['--json', '--verbose', '--help', '--dry-run', '--live-tools', '--lenient', '--local-tools', ...valued]);
    const unknown = [...flags].filter((flag) => !known.has(flag));
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}.`);
    if (command === 'graph') return await graphCommand(rest, flags);
    if (command === 'compare') return await compareCommand(rest, flags);
    if (command === 'resume') return await resumeCommand({ argv, files: rest, flags });
    if (command === 'replay') return await replayCommand({ files: rest, flags, write: (text) => process.stdout.write(text) });
    if (command === 'repro') return await reproCommand({ argv, files: rest, flags, write: (text) => process.stdout.write(text), warn: (text) => process.stderr.write(text) });
    throw new UsageError(`unknown command "${command}".`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`loopscope: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    // Unreadable or malformed input: one clear sentence, no stack unless asked.
    process.stderr.write(`loopscope: ${errorMessage(error)}\n`);
    if (flags.has('--verbose') && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return LoopscopeError.isInstance(error) && error.code === 'INTERNAL' ? 1 : 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
