/**
 * Regenerates the example traces shipped in traces/: each teaching scenario run by the real
 * runner with real genkit, captured over OTLP like any run, its scripted resumes included.
 *
 *   node --import tsx scripts/make-example-traces.ts
 */
import path from 'node:path';
import { writeFileAtomic } from '../lib/trace/atomic-write';
import { encodeOtlpJson } from '../lib/trace/otlp-json';
import { isGenkitScenario } from '../lib/contract/scenario';
import type { Span } from '../lib/trace/span';
import { startCaptureHarness } from '../lib/server/testing/capture-harness';

/** Scenarios that make useful example files (the hazard scenarios are for live runs). */
const EXAMPLES = ['plain-tool-round', 'restart-after-approval', 'respond-to-question', 'parallel-pending-output', 'multi-round-research', 'tool-throws', 'unknown-tool'];

const harness = await startCaptureHarness();
try {
  if (!(await harness.supervisor.whenReady())) throw new Error('the runner did not start');
  for (const name of EXAMPLES) {
    // The example traces are genkit's: the AI SDK's real runs are lib/dialects/ai-sdk/__fixtures__.
    const scenario = harness.supervisor.status.scenarios.filter(isGenkitScenario).find((candidate) => candidate.name === name);
    if (!scenario) throw new Error(`no genkit scenario ${name}`);
    const spans: Span[] = [];
    let result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name });
    spans.push(...((await harness.store.get(result.traceIds[0])) ?? []));
    for (const resume of scenario.resumes ?? []) {
      if (result.outcome?.finishReason !== 'interrupted') break;
      result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name, messages: result.outcome.messages, resume });
      spans.push(...((await harness.store.get(result.traceIds[0])) ?? []));
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
