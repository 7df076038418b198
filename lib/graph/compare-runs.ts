/**
 * One scenario, two runs — typically the same loop on two runtimes (genkit JS and genkit Go) —
 * compared where a developer would look: outcomes (each call's status, finish reason, text,
 * interrupts and how each was answered), span shapes (which spans each run recorded, by role,
 * name and how they ended; which attributes each role carries) and wire shapes (the markers on
 * the message parts each call sent and received). Runtime-free: it reads the loop model and the
 * dialects' conversation views, never attribute meanings. The teaching view for "the wire format
 * is unchanged", and a way to find cross-runtime bugs.
 */
import { classifySpan } from '../runtimes/classify-span';
import { dialectOf } from '../runtimes/index';
import { canonicalJson } from '../spans/json-value';
import type { Span } from '../spans/span';
import { buildRunGraph } from './build-run-graph';
import type { RunGraph } from './run-graph';

export interface ComparedRun {
  label: string;
  spans: readonly Span[];
}

export interface Difference {
  /** Where: `outcome`, `spans`, `wire`, with the call and field (`call 1 · finishReason`). */
  aspect: 'outcome' | 'spans' | 'wire';
  where: string;
  a: string;
  b: string;
}

export interface RunComparison {
  a: { label: string; runtimes: string[]; summary: RunGraph['summary'] };
  b: { label: string; runtimes: string[]; summary: RunGraph['summary'] };
  differences: Difference[];
  /** What both runs share, in words (each aspect that matched). */
  same: string[];
}

const NONE = '—';

function describeRun(run: ComparedRun) {
  const graph = buildRunGraph(run.spans);
  const runtimes = [...new Set(graph.generates.map((call) => call.runtime).filter((runtime): runtime is string => runtime !== undefined))];
  return { graph, runtimes };
}

/** Each call's outcome as a few comparable lines. */
function outcomeLines(graph: RunGraph): Map<string, string> {
  const lines = new Map<string, string>();
  graph.generates.forEach((call, position) => {
    const at = `call ${position + 1}`;
    lines.set(`${at} · status`, call.status);
    lines.set(`${at} · finishReason`, call.finishReason ?? NONE);
    lines.set(`${at} · text`, call.text ?? NONE);
    const interrupts = call.turns.flatMap((turn) => turn.toolCalls).filter((tool) => tool.status === 'interrupted');
    lines.set(`${at} · interrupts`, interrupts.map((tool) => `${tool.name}#${tool.ref ?? ''} ${canonicalJson(tool.interrupt?.metadata ?? null)}`).join('; ') || NONE);
    lines.set(`${at} · answers`, (call.resume?.resolutions ?? []).map((resolution) => `${resolution.request.name}#${resolution.request.ref ?? ''} ${resolution.kind}`).join('; ') || NONE);
    lines.set(`${at} · tools run`, [...call.resumeToolCalls, ...call.turns.flatMap((turn) => turn.toolCalls)].filter((tool) => tool.spanId !== undefined).map((tool) => `${tool.name}#${tool.ref ?? ''} ${tool.status}`).join('; ') || NONE);
  });
  return lines;
}

/** Every span as `role name → outcome` (models by role alone: each runtime names its own), counted. */
function spanShapes(spans: readonly Span[]): Map<string, number> {
  const shapes = new Map<string, number>();
  for (const span of spans) {
    const classification = classifySpan(span);
    if (classification.role === 'other') continue;
    const name = classification.role === 'model' ? 'model' : classification.label;
    const key = `${classification.role} ${name} → ${classification.outcome}${span.parentSpanId === undefined ? ' (root of its trace)' : ''}`;
    shapes.set(key, (shapes.get(key) ?? 0) + 1);
  }
  return shapes;
}

/** The attribute names each role's spans carry. */
function attributeKeys(spans: readonly Span[]): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const span of spans) {
    const role = classifySpan(span).role;
    if (role === 'other') continue;
    const set = keys.get(role) ?? new Set<string>();
    for (const key of Object.keys(span.attributes)) set.add(key);
    keys.set(role, set);
  }
  return keys;
}

/** The markers on each call's message parts, as `sent|received|answers: kind marker`. */
function wireShapes(graph: RunGraph, spans: readonly Span[]): Map<string, Set<string>> {
  const wire = new Map<string, Set<string>>();
  graph.generates.forEach((call, position) => {
    const root = spans.find((span) => span.traceId === call.traceId && span.spanId === call.spanId);
    const conversation = root ? dialectOf(root)?.conversationOf?.(root) : undefined;
    const set = new Set<string>();
    for (const [side, messages] of [
      ['sent', conversation?.sent ?? []],
      ['received', conversation?.received ?? []],
      ['answers', conversation?.answers ? [conversation.answers] : []],
    ] as const) {
      for (const message of messages) for (const part of message.parts) for (const marker of part.markers) set.add(`${side} ${message.role} ${part.kind}: ${marker.name}`);
    }
    wire.set(`call ${position + 1}`, set);
  });
  return wire;
}

const listOf = (values: Iterable<string>) => [...values].sort().join(', ') || NONE;

export function compareRuns({ a, b }: { a: ComparedRun; b: ComparedRun }): RunComparison {
  const left = describeRun(a);
  const right = describeRun(b);
  const differences: Difference[] = [];
  const same: string[] = [];

  const outcomes = [outcomeLines(left.graph), outcomeLines(right.graph)] as const;
  let outcomeDiffs = 0;
  for (const where of new Set([...outcomes[0].keys(), ...outcomes[1].keys()])) {
    const [x, y] = [outcomes[0].get(where) ?? NONE, outcomes[1].get(where) ?? NONE];
    if (x !== y) {
      differences.push({ aspect: 'outcome', where, a: x, b: y });
      outcomeDiffs += 1;
    }
  }
  for (const field of ['generates', 'modelCalls', 'toolCalls', 'interrupts', 'responds', 'restarts', 'pendingReused', 'errors', 'traces'] as const) {
    if (left.graph.summary[field] !== right.graph.summary[field]) differences.push({ aspect: 'outcome', where: `summary · ${field}`, a: String(left.graph.summary[field]), b: String(right.graph.summary[field]) });
  }
  if (outcomeDiffs === 0) same.push(`outcomes: ${left.graph.generates.length} call(s), the same status, finish reason, text, interrupts and answers`);

  const shapes = [spanShapes(a.spans), spanShapes(b.spans)] as const;
  let shapeDiffs = 0;
  for (const shape of [...new Set([...shapes[0].keys(), ...shapes[1].keys()])].sort()) {
    const [x, y] = [shapes[0].get(shape) ?? 0, shapes[1].get(shape) ?? 0];
    if (x !== y) {
      differences.push({ aspect: 'spans', where: shape, a: `${x}×`, b: `${y}×` });
      shapeDiffs += 1;
    }
  }
  if (shapeDiffs === 0) same.push('span shapes: the same spans by role, name and how each ended');
  const keys = [attributeKeys(a.spans), attributeKeys(b.spans)] as const;
  for (const role of [...new Set([...keys[0].keys(), ...keys[1].keys()])].sort()) {
    const [x, y] = [keys[0].get(role) ?? new Set<string>(), keys[1].get(role) ?? new Set<string>()];
    const onlyA = [...x].filter((key) => !y.has(key));
    const onlyB = [...y].filter((key) => !x.has(key));
    if (onlyA.length + onlyB.length > 0) differences.push({ aspect: 'spans', where: `${role} span attributes`, a: `only here: ${listOf(onlyA)}`, b: `only here: ${listOf(onlyB)}` });
  }

  const wire = [wireShapes(left.graph, a.spans), wireShapes(right.graph, b.spans)] as const;
  let wireDiffs = 0;
  for (const call of new Set([...wire[0].keys(), ...wire[1].keys()])) {
    const [x, y] = [wire[0].get(call) ?? new Set<string>(), wire[1].get(call) ?? new Set<string>()];
    const onlyA = [...x].filter((marker) => !y.has(marker));
    const onlyB = [...y].filter((marker) => !x.has(marker));
    if (onlyA.length + onlyB.length > 0) {
      differences.push({ aspect: 'wire', where: `${call} · part markers`, a: `only here: ${listOf(onlyA)}`, b: `only here: ${listOf(onlyB)}` });
      wireDiffs += 1;
    }
  }
  if (wireDiffs === 0) same.push('wire shapes: every call sent and received parts with the same markers');

  return {
    a: { label: a.label, runtimes: left.runtimes, summary: left.graph.summary },
    b: { label: b.label, runtimes: right.runtimes, summary: right.graph.summary },
    differences,
    same,
  };
}

/** The comparison as text: both runs, what they share, then each difference (the CLI prints it). */
export function renderComparisonText(comparison: RunComparison): string {
  const head = (side: RunComparison['a']) => `${side.label} (${side.runtimes.join(', ') || 'no calls'}): ${side.summary.generates} call(s), finishReason ${side.summary.finishReason ?? NONE}`;
  const lines = [`A ${head(comparison.a)}`, `B ${head(comparison.b)}`, ''];
  for (const line of comparison.same) lines.push(`same: ${line}`);
  if (comparison.differences.length === 0) lines.push('no differences');
  for (const difference of comparison.differences) lines.push(`differs (${difference.aspect}) ${difference.where}`, `  A: ${difference.a}`, `  B: ${difference.b}`);
  return `${lines.join('\n')}\n`;
}
