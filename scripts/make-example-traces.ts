/**
 * Regenerates the example traces shipped in traces/: each teaching scenario run by the real
 * runner with real genkit, captured over OTLP like any run, its scripted resumes included.
 *
 *   node --import tsx scripts/make-example-traces.ts [name…]   (all when no name is given)
 *
 * The AI SDK examples (`ai-sdk-*`) are its scenarios run the same way: real `generateText`,
 * each scripted answer sent as the next call; the genkit Go examples (`go-*`) are Go scenarios
 * run by real genkit Go in the Go runner (go/runner), its spans sent over OTLP/HTTP.
 */
import path from 'node:path';
import { writeFileAtomic } from '../lib/trace/atomic-write';
import { encodeOtlpJson } from '../lib/trace/otlp-json';
import { isGenkitScenario } from '../lib/contract/scenario';
import type { GenerateResult } from '../lib/server/runner-process';
import type { Span } from '../lib/trace/span';
import { startCaptureHarness, startTestReceiver } from '../lib/server/testing/capture-harness';
import { buildGoRunner, startGoRunner } from '../lib/runtime/genkit-go/go-runner';
import { loadScenarios, isGenkitGoScenario } from '../lib/runtime/scenario';

/** Scenarios that make useful example files (the hazard scenarios are for live runs). */
const GENKIT_EXAMPLES = ['plain-tool-round', 'restart-after-approval', 'respond-to-question', 'parallel-pending-output', 'multi-round-research', 'tool-throws', 'unknown-tool'];
const AI_SDK_EXAMPLES = ['ai-sdk-approval-approved', 'ai-sdk-handed-back-tool'];
const GO_EXAMPLES = ['go-restart-after-approval', 'go-tool-approval-approved'];
const asked = process.argv.slice(2);
const wanted = (name: string) => asked.length === 0 || asked.includes(name);
const EXAMPLES = [...GENKIT_EXAMPLES, ...AI_SDK_EXAMPLES].filter(wanted);

async function writeExample(name: string, recorded: { title: string; spans: Span[] }) {
  const { title, spans } = recorded;
  const file = path.join(process.cwd(), 'traces', `${name}.json`);
  const traces = new Set(spans.map((span) => span.traceId)).size;
  const body = { description: `${title} — ${traces} trace(s), recorded from the ${name} scenario.`, ...encodeOtlpJson(spans) };
  await writeFileAtomic(file, `${JSON.stringify(body, null, 1)}\n`);
  console.log(`traces/${name}.json: ${spans.length} spans in ${traces} trace(s)`);
}

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
    } else if (scenario.runtime === 'ai-sdk') {
      for (const aiSdkAnswers of scenario.resumes ?? []) {
        if (!result.outcome?.interrupts.length) break;
        result = await harness.supervisor.generate({ runId: `example-${name}`, scenario: name, messages: result.outcome.messages, aiSdkAnswers, answers: result.rootSpan });
        await keep(result);
      }
    }
    await writeExample(name, { title: scenario.title, spans });
  }
} finally {
  await harness.close();
}

const goExamples = GO_EXAMPLES.filter(wanted);
if (goExamples.length > 0) {
  const projectDir = process.cwd();
  const goScenarios = (await loadScenarios(path.join(projectDir, 'tools', 'go', 'scenarios'))).scenarios.filter(isGenkitGoScenario);
  const receiver = await startTestReceiver();
  const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir }), projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token });
  try {
    for (const name of goExamples) {
      const scenario = goScenarios.find((candidate) => candidate.name === name);
      if (!scenario) throw new Error(`no Go scenario ${name}`);
      const spans: Span[] = [];
      const keep = async (traceIds: string[] = []) => {
        for (const traceId of traceIds) spans.push(...((await receiver.store.get(traceId)) ?? []));
      };
      let result = await runner.generate({ scenario: name });
      await keep(result.traceIds);
      for (const resume of scenario.resumes ?? []) {
        if (result.outcome?.finishReason !== 'interrupted') break;
        result = await runner.generate({ scenario: name, messages: result.outcome.messages, resume, answers: result.rootSpan });
        await keep(result.traceIds);
      }
      await writeExample(name, { title: scenario.title, spans });
    }
  } finally {
    await runner.stop();
    await receiver.close();
  }
}
