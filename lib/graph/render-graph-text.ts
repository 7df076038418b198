import { printableText } from '../spans/printable-text';
import { requestLabel } from '../loop/loop-model';
import type { RunGraph, ToolCall } from './run-graph';

const ICON: Record<ToolCall['status'], string> = { ok: '✓', error: '✗', interrupted: '⏸', running: '…', 'not-run': '∅' };

/** The first line of a recorded message (genkit's schema errors run to 30 lines), marked when more follows. */
function firstLine(text: string): string {
  const [first] = text.split(/\r?\n/, 1);
  return first.length < text.length ? `${first}…` : first;
}

/** One line of at most `max` characters. */
function short(value: unknown, max = 80): string {
  const whole = typeof value === 'string' ? value : JSON.stringify(value);
  if (whole === undefined) return '';
  const text = firstLine(whole);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A readable text rendering of a run graph: generate → turns → tool calls → resumes. */
export function renderGraphText(graph: RunGraph): string {
  const { summary } = graph;
  const lines: string[] = [
    `${summary.traces} trace(s) · ${summary.generates} generate(s) · ${summary.modelCalls} model call(s) · ${summary.toolCalls} tool call(s) · ` +
      `${summary.interrupts} interrupt(s) · answered: ${summary.responds} respond, ${summary.restarts} restart, ${summary.pendingReused} pendingOutput · ` +
      `${summary.errors} failed · finishReason: ${summary.finishReason ?? 'none'}`,
  ];
  const position = new Map(graph.generates.map((generate, index) => [generate.id, index + 1]));
  const describeCall = (call: ToolCall) => {
    // The runtime's own words, where it has some (the AI SDK's NoSuchToolError, tool-error, denied, …).
    const own = call.runtimeState && call.status !== 'interrupted' && call.status !== 'running' ? `${call.runtimeState.words}${call.errorMessage ? `: ${firstLine(call.errorMessage)}` : ''}` : undefined;
    const words =
      own ??
      (call.status === 'interrupted'
        ? `paused — ${call.interrupt?.pausedAs ?? 'interrupt'} ${short(call.interrupt?.metadata)}`
        : call.status === 'error'
          ? `failed: ${firstLine(call.errorMessage ?? '')}`
          : call.status === 'not-run'
            ? 'never ran'
            : call.restarted
              ? 'ok (restarted)'
              : call.parked
                ? 'ok (parked as pendingOutput)'
                : call.status);
    const answers = call.resolvedBy.map((resolution) => `${resolution.kind} in generate ${position.get(resolution.generateId)}`);
    return `${ICON[call.status]} ${requestLabel(call)}  ${words}${answers.length > 0 ? `  → answered by ${answers.join(', ')}` : ''}`;
  };

  for (const generate of graph.generates) {
    const named = generate.resume?.couldAlsoAnswer?.map((id) => (position.has(id) ? `generate ${position.get(id)}` : `a generate of trace ${id.slice(0, 8)}`));
    const more = (generate.resume?.alternatives ?? 0) - (named?.length ?? 0);
    const alsoCould = named ? `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : undefined;
    const resumeOf = generate.resume?.answersGenerateId
      ? ` (resume of generate ${position.get(generate.resume.answersGenerateId)}${alsoCould ? `; ambiguous: could also answer ${alsoCould}` : ''})`
      : generate.resume
        ? ' (resume)'
        : '';
    const outcome =
      generate.status === 'error'
        ? `✗ failed: ${firstLine(generate.errorMessage ?? '')}`
        : generate.status === 'interrupted'
          ? '⏸ interrupted — waiting for an answer'
          : generate.status === 'running'
            ? '… running'
            : `✓ ${generate.finishReason ?? 'ok'}${generate.runtimeState ? ` (${generate.runtimeState.words})` : ''}`;
    lines.push('', `generate ${position.get(generate.id)}${resumeOf}  trace ${generate.traceId}  ${generate.model ?? ''}  ${outcome}`);
    const shown = new Set<string>();
    if (generate.resume) {
      lines.push('  resume');
      for (const resolution of generate.resume.resolutions) {
        const detail =
          resolution.kind === 'respond' ? `respond ${short(resolution.output)}` : resolution.kind === 'restart' ? `restart${resolution.resumed !== undefined ? `, resumed ${short(resolution.resumed)}` : ''}${resolution.replacedInput !== undefined ? `, new input ${short(resolution.replacedInput)}` : ''}` : resolution.kind === 'pending' ? 'pendingOutput reused — not re-run' : 'left unanswered';
        lines.push(`    ${requestLabel(resolution.request)}  ${detail}${resolution.words ? ` — ${resolution.words}` : ''}`);
        const ran = generate.resumeToolCalls.find((call) => call.id === resolution.restartedToolCallId);
        if (ran) {
          shown.add(ran.id);
          lines.push(`      ${describeCall(ran)}`);
        }
      }
    }
    // Calls of the generate before its first model turn that no answer ran (a call it paused on again: Mastra's next approval).
    const before = generate.resumeToolCalls.filter((call) => !shown.has(call.id));
    if (before.length > 0) {
      lines.push('  before the first model call');
      for (const call of before) lines.push(`    ${describeCall(call)}`);
    }
    for (const turn of generate.turns) {
      const model = turn.model;
      if (!model) {
        lines.push(`  turn ${turn.index + 1}  (no model span)`);
        for (const call of turn.toolCalls) lines.push(`    ${describeCall(call)}`);
        continue;
      }
      const asked = model.toolRequests.length > 0 ? `→ ${model.toolRequests.length} tool request(s)` : `→ ${short(model.text ?? '(no text)')}`;
      lines.push(`  turn ${turn.index + 1}  ${model.model}  ${asked}`);
      for (const call of turn.toolCalls) lines.push(`    ${describeCall(call)}`);
    }
    if (generate.text !== undefined) lines.push(`  final answer: ${short(generate.text, 120)}`);
    for (const note of generate.notes) lines.push(`  note: ${note}`);
  }
  const standalone = graph.nodes.filter((node) => node.generateId === '');
  if (standalone.length > 0) {
    lines.push('', 'tool calls outside any generate');
    for (const node of standalone) {
      lines.push(`  ${node.label}  ${node.status}${node.detail ? `  ${short(node.detail)}` : ''}`);
      for (const note of node.notes ?? []) lines.push(`  note: ${note}`);
    }
  }
  // Recorded names and texts are data: nothing in them may act on the terminal.
  return `${lines.map(printableText).join('\n')}\n`;
}
