/**
 * Regenerates the genkit Go fixtures: every Go scenario (tools/go/scenarios/) run by the real
 * genkit Go module in Loopscope's Go runner (go/runner), its scripted resumes sent as the next
 * calls, the spans exported by the runner's OTLP/HTTP exporter to a receiver with the server's
 * decoder, written as OTLP JSON — one file per scenario, every trace of every call in it.
 *
 *   node --import tsx lib/dialects/genkit-go/__fixtures__/make-fixtures.ts
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGoRunner, startGoRunner } from '../../../runtime/genkit-go/go-runner';
import { startTestReceiver } from '../../../server/testing/capture-harness';
import { writeFileAtomic } from '../../../trace/atomic-write';
import { encodeOtlpJson } from '../../../trace/otlp-json';
import type { Span } from '../../../trace/span';

const projectDir = process.cwd();
const scenariosDir = path.join(projectDir, 'tools', 'go', 'scenarios');
const receiver = await startTestReceiver();
const runner = await startGoRunner({ binary: await buildGoRunner({ projectDir }), projectDir, otlpEndpoint: receiver.endpoint, token: receiver.token });
try {
  for (const file of (await readdir(scenariosDir)).filter((name) => name.endsWith('.json')).sort()) {
    const scenario = JSON.parse(await readFile(path.join(scenariosDir, file), 'utf8')) as { name: string; resumes?: { respond?: unknown[]; restart?: unknown[] }[] };
    const spans: Span[] = [];
    const keep = async (traceIds: string[] = []) => {
      for (const traceId of traceIds) spans.push(...((await receiver.store.get(traceId)) ?? []));
    };
    let result = await runner.generate({ scenario: scenario.name });
    await keep(result.traceIds);
    for (const resume of scenario.resumes ?? []) {
      if (result.outcome?.finishReason !== 'interrupted') break;
      result = await runner.generate({ scenario: scenario.name, messages: result.outcome.messages, resume, answers: result.rootSpan });
      await keep(result.traceIds);
    }
    const out = path.join(projectDir, 'lib', 'dialects', 'genkit-go', '__fixtures__', `${scenario.name}.otlp.json`);
    await writeFileAtomic(out, `${JSON.stringify(encodeOtlpJson(spans), null, 1)}\n`);
    console.log(`${path.relative(projectDir, out)}: ${spans.length} spans in ${new Set(spans.map((span) => span.traceId)).size} trace(s)`);
  }
} finally {
  await runner.stop();
  await receiver.close();
}
