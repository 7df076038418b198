/**
 * Writes an AI SDK recording as one standalone TypeScript file that reproduces the run with
 * the `ai` package alone (and `@ai-sdk/provider` types) — to attach to a bug report. It follows
 * the replay's rules (lib/runtimes/ai-sdk/replay/replay-ai-sdk.ts): a `LanguageModelV4` answers each
 * call's model calls with that call's recorded answers, in order; stub tools play back the
 * recorded tool runs and refuse the inputs the recording refused; the recorded approval
 * decisions, step limits and signing are applied; an answering call sends its parent's messages
 * plus its recorded answers, built as any caller builds them.
 *
 * Recorded strings reach the file only through `codeLiteral` (code-literal.ts): never into a
 * comment, a template literal or an identifier (tools are keyed by string literals).
 */
import type { AiSdkCallStep, AiSdkRecording, AiSdkRecordedTool } from '../read/recording';
import { codeLiteral } from '../../../replay/code-literal';
import { aiSdkReproHelpersSource } from './repro-ai-sdk-helper-source';
import { describeOutcome } from '../../../replay/replay-report';

export interface ExportAiSdkReproOptions {
  title?: string;
  /** Where the recording came from (a file path), kept in `recording`. */
  source?: string;
  /** The name the file will be saved under, for the run instruction (default `repro.ts`). */
  fileName?: string;
}

const PLAIN_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

function header(recording: AiSdkRecording, options: ExportAiSdkReproOptions): string[] {
  const fileName = options.fileName ?? 'repro.ts';
  const calls = recording.steps.length;
  return [
    '/**',
    ` * Repro of a Vercel AI SDK run recorded by Loopscope: ${calls} generateText call${calls === 1 ? '' : 's'}, ${recording.spanCount} spans.`,
    ' * Where it came from and how each call ended are in `recording` below.',
    ' *',
    ' * It makes the recorded calls again with the real `generateText` of `ai` and nothing else: a',
    ' * LanguageModelV4 answers each model call with the recorded answer, in order, and the tools are',
    ' * stubs that return or throw as they did in the recording (approvals decided as recorded).',
    ' *',
    ' * Run it from a folder where ai 7 is installed (npm install ai@7 @ai-sdk/provider@4 tsx):',
    ` *   npx tsx ${PLAIN_FILE_NAME.test(fileName) ? fileName : '<this file>'}`,
    ' *',
    ' * It prints one line per call; `recording.outcomes` lists how they ended in the recording.',
    ' * Recorded text (names, inputs, outputs, messages) appears only in string literals, never in a comment.',
    ' */',
  ];
}

function about(recording: AiSdkRecording, options: ExportAiSdkReproOptions): string[] {
  const value: Record<string, unknown> = {};
  if (options.title) value.title = options.title;
  value.source = options.source ?? 'a recording';
  value.outcomes = recording.steps.map((step) => `${step.label}: ${describeOutcome(step.outcome)}`);
  return ['/** What the recording says about itself. */', `export const recording = ${codeLiteral(value, 'export const recording = ')};`];
}

/** The per-call table: model answers (or errors), tool runs, refused inputs. */
function recordedTable(recording: AiSdkRecording): string[] {
  const lines = ['const recorded: Recorded[] = ['];
  for (const step of recording.steps) {
    const entry = {
      modelResponses: step.modelCalls.map((call) => (call.errorMessage !== undefined ? { error: call.errorMessage } : { content: call.response?.content ?? [], finishReason: call.response?.finishReason ?? 'stop' })),
      toolRuns: step.toolExecutions.map((execution) => ({ tool: execution.name, input: execution.input, ...(execution.outcome.kind === 'error' ? { throws: execution.outcome.message } : { returns: execution.outcome.kind === 'output' ? (execution.outcome.output ?? null) : null }) })),
      refused: step.invalidInputs,
    };
    lines.push(`  // call ${step.index}`, `  ${codeLiteral(entry, '  ')},`);
  }
  lines.push('];', '', '/** The call of the chain running now: the model and the stubs answer from its entry. */', 'let current = 0;');
  return lines;
}

function toolSource(definition: AiSdkRecordedTool): string[] {
  const key = `  [${codeLiteral(definition.name)}]: `;
  const schema = `jsonSchema(${codeLiteral(definition.inputSchema ?? { type: 'object' }, '    inputSchema: jsonSchema(')}, { validate: recordedVerdict(${codeLiteral(definition.name)}) })`;
  if (definition.type === 'provider') {
    return [`${key}{`, `    type: "provider",`, `    id: ${codeLiteral(definition.providerId ?? definition.name)} as \`\${string}.\${string}\`,`, '    isProviderExecuted: true,', `    args: ${codeLiteral(definition.args ?? {}, '    args: ')},`, `    inputSchema: ${schema},`, '  } as Tool,'];
  }
  return [
    `${key}tool({`,
    ...(definition.description !== undefined ? [`    description: ${codeLiteral(definition.description, '    description: ')},`] : []),
    `    inputSchema: ${schema},`,
    ...(definition.execute ? [`    execute: async (input: unknown) => playTool(${codeLiteral(definition.name)}, input),`] : []),
    '  } as never) as Tool,',
  ];
}

function toolsSource(recording: AiSdkRecording): string[] {
  const approvals = Object.fromEntries([...recording.approvals].map(([id, decision]) => [id, decision.type === 'denied' ? decision : decision.type]));
  return [
    '/** One stub per recorded tool, with its recorded definition (a tool without execute stays without: its calls are handed back). */',
    'const tools: ToolSet = {',
    ...[...recording.tools.values()].flatMap(toolSource),
    '};',
    '',
    '/** What the approval setting decided for each tool call, by tool call id (absent: not applicable). */',
    `const approvals: Record<string, ToolApprovalStatus> = ${codeLiteral(approvals, 'const approvals: Record<string, ToolApprovalStatus> = ')};`,
    'const toolApproval = ({ toolCall }: { toolCall: { toolCallId: string } }): ToolApprovalStatus =>',
    '  Object.hasOwn(approvals, toolCall.toolCallId) ? approvals[toolCall.toolCallId] : "not-applicable";',
    ...(recording.signedApprovals ? ['', '/** The recorded approvals were signed (experimental_toolApprovalSecret): this file signs its own. */', 'const approvalSecret = "loopscope-repro-approval-secret";'] : []),
  ];
}

/** The answers of an answering call, as its recording holds them, in the order a caller sends them. */
function answersLiteral(step: AiSdkCallStep): unknown {
  return (step.answers ?? []).map((answer) => (answer.kind === 'approve' ? { kind: answer.kind, toolCallId: answer.toolCallId, toolName: answer.toolName, ...(answer.input !== undefined ? { input: answer.input } : {}) } : answer));
}

function callSource({ recording, step }: { recording: AiSdkRecording; step: AiSdkCallStep }): string[] {
  const indent = '    ';
  const parent = step.continues;
  const messages =
    parent !== undefined && step.answers
      ? `answer(h${parent + 1}, ${codeLiteral(answersLiteral(step), `${indent}messages: answer(h${parent + 1}, `)})`
      : codeLiteral(step.messages, `${indent}messages: `);
  return [
    `  const h${step.index + 1} = await call(${step.index}, ${codeLiteral(step.label)}, {`,
    `${indent}model: recordedModel(${codeLiteral(step.provider)}, ${codeLiteral(step.modelId)}),`,
    ...(step.system !== undefined ? [`${indent}system: ${codeLiteral(step.system, `${indent}system: `)},`] : []),
    // Recorded call settings (numbers and stop sequences), as options of generateText.
    ...Object.entries(step.settings).map(([name, value]) => `${indent}${name}: ${codeLiteral(value, `${indent}${name}: `)},`),
    `${indent}messages: ${messages},`,
    `${indent}tools,`,
    `${indent}toolApproval,`,
    ...(recording.signedApprovals ? [`${indent}experimental_toolApprovalSecret: approvalSecret,`] : []),
    `${indent}stopWhen: stepCountIs(${step.maxSteps}),`,
    `${indent}maxRetries: 0,`,
    '  });',
  ];
}

function chain(recording: AiSdkRecording): string[] {
  const lines = ['/** The recorded calls, in causal order. */', 'async function main(): Promise<void> {'];
  recording.steps.forEach((step, position) => {
    if (position > 0) lines.push('');
    lines.push(...callSource({ recording, step }));
  });
  // Every history variable is read by a later call or not at all: keep the compiler quiet about the last.
  lines.push(`  void h${recording.steps.length};`, '}', '', 'main();');
  return lines;
}

/**
 * One standalone TypeScript file reproducing a recorded AI SDK run with `ai` alone: run with
 * `npx tsx`, it prints one line per call in the words of `describeOutcome`
 * ("call 2 (answer): finished (stop)") and exits 0.
 */
export function exportAiSdkRepro(recording: AiSdkRecording, options: ExportAiSdkReproOptions = {}): string {
  const sections = [
    header(recording, options),
    ['import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage, type Tool, type ToolApprovalStatus, type ToolSet } from "ai";', 'import type { LanguageModelV4, LanguageModelV4Content } from "@ai-sdk/provider";'],
    about(recording, options),
    aiSdkReproHelpersSource.types,
    recordedTable(recording),
    aiSdkReproHelpersSource.playback,
    toolsSource(recording),
    aiSdkReproHelpersSource.calls,
    chain(recording),
  ];
  return `${sections.map((section) => section.join('\n')).join('\n\n')}\n`;
}
