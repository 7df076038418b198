/**
 * Regenerates the AI SDK span fixtures in this folder from real `ai@7` runs.
 *
 *   node --import tsx lib/dialects/ai-sdk/__fixtures__/make-fixtures.ts
 *
 * Every `runtime: "ai-sdk"` scenario of tools/scenarios/ runs in-process with real
 * `generateText` on its scripted `LanguageModelV4` and the tools of tools/ai-sdk/, then each of
 * its scripted resumes as a second `generateText` on the first one's messages plus the answer
 * (its own trace, as the AI SDK makes it: nothing links it to the first). Spans come from
 * `registerTelemetry(new OpenTelemetry())` (the GenAI semantic-convention spans) into the
 * OpenTelemetry SDK with an in-memory exporter (lib/runtime/in-process-capture.ts), and are
 * written as `<scenario>.otlp.json` with a top-level `description` built from what the run did.
 * One more file, `<scenario>.legacy.otlp.json`, records an approval scenario through
 * `LegacyOpenTelemetry` (the older `ai.generateText` / `ai.toolCall` spans).
 *
 * Span ids and timestamps differ per run; names, attributes and message content do not
 * (approval ids are random too: they appear inside `gen_ai.*.messages` only when serialised).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startInProcessCapture } from '../../../runtime/in-process-capture';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { encodeOtlpJson } from '../../../trace/otlp-json';
import type { Span } from '../../../trace/span';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectDir = path.resolve(here, '../../../..');
/** Signs the signed-approval scenario's requests; a fixed test value, so reruns sign alike. */
const FIXTURE_APPROVAL_SECRET = 'loopscope-fixture-approval-secret';
/** The approval scenario also recorded through LegacyOpenTelemetry. */
const LEGACY_SCENARIO = 'ai-sdk-approval-approved';

const capture = await startInProcessCapture({ serviceName: 'loopscope-fixtures' });
// The AI SDK pieces are imported after the global tracer provider is registered.
const [{ registerTelemetry }, { OpenTelemetry, LegacyOpenTelemetry }, { loadScenarios }, { loadAiSdkTools }, { runAiSdkCall }] = await Promise.all([
  import('ai'),
  import('@ai-sdk/otel'),
  import('../../../runtime/scenario'),
  import('../../../runtime/ai-sdk/load-ai-sdk-tools'),
  import('../../../runtime/ai-sdk/run-ai-sdk-call'),
]);
registerTelemetry(new OpenTelemetry());

const catalog = await loadAiSdkTools(path.join(projectDir, 'tools', 'ai-sdk'));
if (catalog.problems.length > 0) throw new Error(`tools/ai-sdk/ has problems: ${JSON.stringify(catalog.problems)}`);
const loaded = await loadScenarios(path.join(projectDir, 'tools', 'scenarios'));
if (loaded.problems.length > 0) throw new Error(`tools/scenarios/ has problems: ${JSON.stringify(loaded.problems)}`);
const scenarios = loaded.scenarios.filter((scenario): scenario is AiSdkScenario => scenario.runtime === 'ai-sdk');

/** Runs a scenario's first call and its resumes; returns every span and what each call did. */
async function record(scenario: AiSdkScenario, integrations?: import('ai').Telemetry[]) {
  await capture.take(); // nothing from an earlier case
  const calls: string[] = [];
  const spans: Span[] = [];
  let previous = await runAiSdkCall({ scenario, catalog, approvalSecret: FIXTURE_APPROVAL_SECRET, integrations });
  const collect = async (label: string) => {
    const taken = await capture.take();
    if (taken.started !== taken.spans.length) throw new Error(`${scenario.name}: ${taken.started} spans started, ${taken.spans.length} ended`);
    spans.push(...taken.spans);
    const { outcome, failure } = previous;
    const pending = outcome?.interrupts.map((call) => `${call.kind} ${call.toolName}#${call.toolCallId}`).join(', ');
    calls.push(
      failure
        ? `${label}: failed (${failure.name}: ${failure.message}), ${taken.spans.length} spans`
        : `${label}: finish reason ${outcome?.finishReason}, ${outcome?.steps} step(s)${pending ? `, waiting: ${pending}` : ''}, ${taken.spans.length} spans`,
    );
  };
  await collect('call 1');
  for (const [index, answers] of (scenario.resumes ?? []).entries()) {
    if (!previous.outcome) break;
    previous = await runAiSdkCall({ scenario, catalog, approvalSecret: FIXTURE_APPROVAL_SECRET, messages: previous.outcome.messages, answers, integrations });
    await collect(`call ${index + 2} (answers ${JSON.stringify(answers)})`);
  }
  return { spans, calls };
}

function write({ file, scenario, spans, calls }: { file: string; scenario: AiSdkScenario; spans: Span[]; calls: string[] }) {
  const traces = new Set(spans.map((span) => span.traceId)).size;
  const description = `${scenario.title} (tools/scenarios/${scenario.name}.json), recorded with ai@7 — ${calls.join('; ')}.`;
  writeFileSync(path.join(here, file), `${JSON.stringify({ description, ...encodeOtlpJson(spans) }, null, 1)}\n`);
  console.log(`${file}: ${spans.length} spans in ${traces} trace(s) — ${calls.join('; ')}`);
}

for (const scenario of scenarios) {
  const { spans, calls } = await record(scenario);
  write({ file: `${scenario.name}.otlp.json`, scenario, spans, calls });
}
const legacy = scenarios.find((scenario) => scenario.name === LEGACY_SCENARIO);
if (!legacy) throw new Error(`no scenario ${LEGACY_SCENARIO}`);
const legacyRun = await record(legacy, [new LegacyOpenTelemetry()]);
write({ file: `${legacy.name}.legacy.otlp.json`, scenario: legacy, ...legacyRun });
await capture.shutdown();
