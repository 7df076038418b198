/**
 * Regenerates the external-app fixtures of this folder: traces that a developer's own genkit
 * app (apps/hitl-app.ts, a separate process with the standard OTel NodeSDK and OTLP/HTTP
 * exporter) sends to an OTLP receiver — the way any app exports to Loopscope. Each case is
 * one or more app processes; every span that arrives is counted and stored.
 *
 *   node --import tsx lib/graph/__fixtures__/make-app-fixtures.ts
 *
 * Files: two-conversations, identical-conversations, refless-conversations, four-services,
 * flow-twice (`<case>.otlp.json`, each with a top-level `description`).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOtlpRequest } from '../../server/otlp-receiver';
import { mergeSpans } from '../../trace/merge-spans';
import { encodeOtlpJson } from '../../trace/otlp-json';
import type { Span } from '../../trace/span';

const here = dirname(fileURLToPath(import.meta.url));
const projectDir = join(here, '..', '..', '..');
const app = join(here, 'apps', 'hitl-app.ts');

let received: Span[] = [];
let requests = 0;
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      received = mergeSpans(received, decodeOtlpRequest({ contentType: request.headers['content-type'] ?? null, contentEncoding: request.headers['content-encoding'] ?? null, body: Buffer.concat(chunks) }));
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch (error) {
      response.writeHead(400).end(String(error));
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

function runApp(caseName: string, serviceName: string): Promise<unknown> {
  const environment: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: serviceName };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', app, caseName], { cwd: projectDir, env: environment as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`hitl-app ${caseName} (${serviceName}) exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
    });
  });
}

const problems: string[] = [];

async function makeFixture(options: { file: string; runs: { caseName: string; service: string }[]; expectTraces: number; describe: (results: unknown[]) => string }) {
  received = [];
  requests = 0;
  const results = await Promise.all(options.runs.map((run) => runApp(run.caseName, run.service)));
  const traces = new Set(received.map((span) => span.traceId)).size;
  if (traces !== options.expectTraces) problems.push(`${options.file}: expected ${options.expectTraces} traces, received ${traces}`);
  const description = `${options.describe(results)} Made by make-app-fixtures.ts: ${received.length} spans in ${traces} traces arrived over OTLP/HTTP in ${requests} export requests.`;
  writeFileSync(join(here, `${options.file}.otlp.json`), `${JSON.stringify({ description, ...encodeOtlpJson(received) }, null, 1)}\n`);
  console.log(`${options.file}: ${received.length} spans, ${traces} traces — ${JSON.stringify(results)}`);
}

const PAIR = 'Same tool request transferMoney#t1 {to:"bob",amount:500} in both conversations; each interrupt is answered by a restart in a trace of its own (no OTel link, as genkit records it).';
await makeFixture({
  file: 'two-conversations',
  runs: [{ caseName: 'two-conversations', service: 'hitl-server' }],
  expectTraces: 4,
  describe: () => `A human-in-the-loop server: conversation A interrupts, B interrupts, B is resumed (approved by bea), then A (approved by alice). ${PAIR} The prompts differ, so the whole history tells which resume answers which interrupt: B's resume answers B, A's answers A, one answer each.`,
});
await makeFixture({
  file: 'identical-conversations',
  runs: [{ caseName: 'identical-conversations', service: 'hitl-server' }],
  expectTraces: 4,
  describe: () => `As two-conversations, but both conversations have the same prompt: nothing recorded tells them apart. ${PAIR} Linked one to one (nearest earlier unanswered interrupt first), each answer edge marked ambiguous.`,
});
await makeFixture({
  file: 'refless-conversations',
  runs: [{ caseName: 'refless-conversations', service: 'hitl-server' }],
  expectTraces: 4,
  describe: () => 'As two-conversations, but the model sets no ref on its tool request (genkit\'s Gemini plugin sets none): transferMoney {to:"bob",amount:500}. The different prompts still tell the two conversations apart.',
});
await makeFixture({
  file: 'four-services',
  runs: ['billing', 'payroll', 'refunds', 'treasury'].map((service) => ({ caseName: 'one-conversation', service })),
  expectTraces: 8,
  describe: () => 'Four services (service.name billing, payroll, refunds, treasury), each its own process, run the same conversation at the same time: an interrupt at transferMoney#t1 then its resume. Identical content: only the resource tells them apart — four sessions of two traces, never one session of eight.',
});
await makeFixture({
  file: 'flow-twice',
  runs: [{ caseName: 'flow-twice', service: 'hitl-server' }],
  expectTraces: 2,
  describe: () => 'A flow (transferFlow) that interrupts at transferMoney#t1 and resumes itself inside its own trace, run twice at once with identical prompts, so the two runs interleave (interrupt, interrupt, resume, resume). Each resume answers the interrupt of its own trace: two sessions of one trace each.',
});

receiver.close();
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
