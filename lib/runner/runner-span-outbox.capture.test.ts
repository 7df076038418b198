import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spanFromEndedRecord } from '../contract/ended-span';
import { decodeOtlpJson } from '../spans/otlp-json';
import type { Span } from '../spans/span';
import { AnswerLinkProcessor, traceGenerate } from './answer-link';
import { runContext } from './run-context';
import type { RunnerEvent } from './runner-protocol';
import { RunnerSpanOutbox } from './runner-span-outbox';
import { SpanLifecycleReporter } from './span-lifecycle-reporter';
import { engineSpanStarts } from './span-starts';
import { nodeRunnerOptions } from '../runtimes/node-runner-options';
import { REGISTERED_RUNTIMES } from '../runtimes/with-runtime';

/**
 * The runner stores its spans from their IPC records, not from an OTLP export: for real genkit
 * tool loops (the project's tools/ and scenarios, a resume with its answer link), what the
 * server makes of the records that went through V8's serializer, as process.send sends them (the
 * channel is in `advanced` serialization), must be span for span what the OTLP/HTTP JSON
 * exporter's serializer would have delivered.
 */
const exporter = new InMemorySpanExporter();
const sent: RunnerEvent[] = [];
/** Every span start the reporter saw, and whether it had to leave the process before its code ran. */
const starts: { name: string; subtype?: string; urgent: boolean }[] = [];
const outbox = new RunnerSpanOutbox((event) => sent.push(deserialize(serialize(event)) as RunnerEvent));
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'loopscope-runner' }),
  spanProcessors: [
    new AnswerLinkProcessor(),
    new SpanLifecycleReporter({
      // What the runner's registered engines say of their spans' starts, as the runner asks them.
      spanStarts: engineSpanStarts(nodeRunnerOptions(REGISTERED_RUNTIMES).engines),
      onStart: (event, { urgent }) => {
        starts.push({ name: event.name, subtype: event.attributes['genkit:metadata:subtype'], urgent });
        outbox.queueStart(event, urgent);
      },
      onEnd: (span, owner) => outbox.queueEnd(span, owner),
    }),
    new SimpleSpanProcessor(exporter),
  ],
});
let ai: import('genkit/beta').GenkitBeta;
let scenarios: Map<string, import('../contract/scenario').GenkitScenario>;

beforeAll(async () => {
  disableGenkitOTelInitialization();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const { genkit } = await import('genkit/beta');
  const { loadToolModules } = await import('../runtimes/genkit-js/run/load-tools');
  const { loadScenarios } = await import('./scenario');
  const { isGenkitScenario } = await import('../runtimes/genkit-js/read/genkit-scenario');
  const { defineScriptedModel } = await import('../runtimes/genkit-js/run/scripted-model');
  ai = genkit({});
  const toolsDir = path.join(process.cwd(), 'tools');
  await loadToolModules(ai, toolsDir);
  scenarios = new Map((await loadScenarios(path.join(toolsDir, 'scenarios'))).scenarios.filter(isGenkitScenario).map((scenario) => [scenario.name, scenario]));
  for (const scenario of scenarios.values()) defineScriptedModel(ai, scenario);
});
afterAll(async () => provider.shutdown());

/** Runs a scenario's generate as the runner does (inside a run's context); returns what the store would get both ways. */
async function bothWays(name: string, options: { answers?: { traceId: string; spanId: string } } = {}) {
  const scenario = scenarios.get(name)!;
  exporter.reset();
  sent.length = 0;
  starts.length = 0;
  const run = { runId: `run-${name}`, requestId: `run-${name}:1`, traceIds: new Set<string>() };
  let root: { traceId: string; spanId: string } | undefined;
  const response = await runContext.run(run, () =>
    traceGenerate({ answers: options.answers, onRootSpan: (ref) => (root = ref) }, () =>
      ai.generate({ model: `scripted/${scenario.name}`, prompt: scenario.prompt, tools: scenario.tools, maxTurns: scenario.maxTurns }),
    ),
  );
  outbox.flush();
  const records = sent.flatMap((event) => (event.type === 'span-events' ? event.ends : []));
  const fromRecords = records.map(spanFromEndedRecord);
  const exported = decodeOtlpJson(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans() as never))));
  return { response, records, fromRecords, exported, root: root! };
}

/** Spans as plain data (the decoders use null-prototype attribute maps), by span id. */
function plain(spans: Span[]) {
  const copy = (attributes: object) => ({ ...attributes });
  return new Map(
    spans.map((span) => [
      span.spanId,
      {
        ...span,
        attributes: copy(span.attributes),
        resource: copy(span.resource),
        events: span.events.map((event) => ({ ...event, attributes: copy(event.attributes) })),
        links: span.links.map((link) => ({ ...link, attributes: copy(link.attributes) })),
      },
    ]),
  );
}

describe('the runner’s IPC span records', () => {
  it('give the spans an OTLP export would, for a 4-round tool loop: every span, every attribute', async () => {
    const { response, records, fromRecords, exported } = await bothWays('multi-round-research');
    expect(response.finishReason).toBe('stop');
    // 5 model turns, 4 tool runs: 2 × 5 + 4 spans, each reported once, with its run.
    expect(exported).toHaveLength(14);
    expect(records).toHaveLength(14);
    expect(new Set(records.map((record) => record.requestId))).toEqual(new Set(['run-multi-round-research:1']));
    expect(plain(fromRecords)).toEqual(plain(exported));
    // Not a vacuous match: the model spans carry the whole history as JSON.
    expect(fromRecords.some((span) => String(span.attributes['genkit:input'] ?? '').includes('"role":"tool"'))).toBe(true);
  });

  it('have only the tools’ starts leave at once: the scripted model runs no tools/ code', async () => {
    await bothWays('multi-round-research');
    const urgent = starts.filter((start) => start.urgent);
    expect(urgent).toHaveLength(4);
    expect(new Set(urgent.map((start) => start.subtype))).toEqual(new Set(['tool']));
    // The 5 turns of scripted/multi-round-research were seen, and not one of them was urgent.
    expect(starts.filter((start) => start.subtype === 'model').map((start) => [start.name, start.urgent])).toEqual(Array.from({ length: 5 }, () => ['scripted/multi-round-research', false]));
  });

  it('keep the answer link a resume’s root span carries', async () => {
    const interrupted = await bothWays('respond-to-question');
    expect(interrupted.response.finishReason).toBe('interrupted');
    const resumed = await bothWays('plain-tool-round', { answers: interrupted.root });
    const root = plain(resumed.fromRecords).get(resumed.root.spanId)!;
    expect(root.links).toHaveLength(1);
    expect(root.links[0]).toMatchObject({ traceId: interrupted.root.traceId, spanId: interrupted.root.spanId });
    expect(plain(resumed.fromRecords)).toEqual(plain(resumed.exported));
  });
});
