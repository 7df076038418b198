/**
 * Regenerates the example traces shipped in traces/: each teaching scenario run by the real
 * runner with real genkit, captured over OTLP like any run, its scripted resumes included.
 *
 *   node --import tsx scripts/make-example-traces.ts [name…]   (all when no name is given)
 *
 * The AI SDK examples (`ai-sdk-*`) are its scenarios run the same way: real `generateText`,
 * each scripted answer sent as the next call.
 */
import path from 'node:path';
import { writeFileAtomic } from '../lib/trace/atomic-write';
import { encodeOtlpJson } from '../lib/trace/otlp-json';
import { isGenkitScenario } from '../lib/contract/scenario';
import type { GenerateResult } from '../lib/server/runner-process';
import type { Span } from '../lib/trace/span';
import { startCaptureHarness } from '../lib/server/testing/capture-harness';

/** Scenarios that make useful example files (the hazard scenarios are for live runs). */
const GENKIT_EXAMPLES = ['plain-tool-round', 'restart-after-approval', 'respond-to-question', 'parallel-pending-output', 'multi-round-research', 'tool-throws', 'unknown-tool'];
const AI_SDK_EXAMPLES = ['ai-sdk-approval-approved', 'ai-sdk-handed-back-tool'];
const asked = process.argv.slice(2);
const EXAMPLES = [...GENKIT_EXAMPLES, ...AI_SDK_EXAMPLES].filter((name) => asked.length === 0 || asked.includes(name));

const harness = await startCaptureHarness();
try {
  if (!(await harness.supervisor.whenReady())) throw new Error('the runner did not start');
  for (const name of EXAMPLES) {
    const scenario = harness.supervisor.status.scenarios.find((candidate) => candidate.name === name);
    if (!scenario) throw new Error(`no scenario ${name}`);
    const spans: Span[] = [];
    const keep = async (result: GenerateResult) => spans.push(...((await harness.store.get(result.traceIds[0])) ?? []));
    let result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name });
    await keep(result);
    if (isGenkitScenario(scenario)) {
      for (const resume of scenario.resumes ?? []) {
        if (result.outcome?.finishReason !== 'interrupted') break;
        result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name, messages: result.outcome.messages, resume });
        await keep(result);
      }
    } else {
      for (const aiSdkAnswers of scenario.resumes ?? []) {
        if (!result.outcome?.interrupts.length) break;
        result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name, messages: result.outcome.messages, aiSdkAnswers, answers: result.rootSpan });
        await keep(result);
      }
    }
    const file = path.join(process.cwd(), 'traces', `${name}.json`);
    const traces = new Set(spans.map((span) => span.traceId)).size;
    const body = { description: `${scenario.title} — ${traces} trace(s), recorded from the ${name} scenario.`, ...encodeOtlpJson(spans) };
    await writeFileAtomic(file, `${JSON.stringify(body, null, 1)}\n`);
    console.log(`traces/${name}.json: ${spans.length} spans in ${traces} trace(s)`);
  }
} finally {
  await harness.close();
}
