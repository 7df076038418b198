/**
 * Records what the genkit Go and Python test apps (examples/apps/) really send when a dev tool
 * attaches: their runtime file, `GET /api/actions`, `POST /api/runAction` replies for a flow run,
 * an ad-hoc run of the interrupting tool, an interrupted flow and its resumes through
 * /util/generate, and every request that reached the telemetry server (GENKIT_TELEMETRY_SERVER).
 * Writes lib/dialects/genkit-go/__fixtures__/attach-*.json and
 * lib/dialects/genkit-python/__fixtures__/attach-*.json. Ids and times differ on every run.
 *
 *   node --import tsx scripts/make-attach-fixtures.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildGenkitGoApp, GENKIT_GO_APP_DIR } from '../lib/attach/testing/genkit-go-app';
import { ensureGenkitPythonApp, genkitPythonAppCommand } from '../lib/attach/testing/genkit-python-app';
import { checkHealth, listActions, runAction, type RunActionReply } from '../lib/attach/testing/reflection-calls';
import { startTelemetryRecorder, type TelemetryRecorder } from '../lib/attach/testing/telemetry-recorder';
import { startTestApp, type StartTestAppOptions } from '../lib/attach/testing/test-app-process';
import { freePort } from '../lib/server/testing/free-port';

const projectDir = process.cwd();

interface Recorded {
  request: { key: string; input: unknown; stream?: boolean };
  reply: Omit<RunActionReply, 'raw'>;
  /** The telemetry requests of the run's trace, in arrival order. */
  telemetry: { path: string; body: unknown }[];
}

async function record(options: { recorder: TelemetryRecorder; url: string; key: string; input: unknown; stream?: boolean; posts: number }): Promise<Recorded> {
  const reply = await runAction({ url: options.url, key: options.key, input: options.input, stream: options.stream });
  const traceId = reply.traceId ?? reply.traceIdHeader;
  const ofTrace = () => options.recorder.requests.filter((request) => request.path === '/api/traces' && (request.body as { traceId?: string }).traceId === traceId);
  await options.recorder.waitFor({ predicate: () => ofTrace().length >= options.posts, what: `${options.posts} posts of ${options.key}` });
  const { raw: _raw, ...kept } = reply;
  return { request: { key: options.key, input: options.input, stream: options.stream }, reply: kept, telemetry: ofTrace().map(({ path: requestPath, body }) => ({ path: requestPath, body })) };
}

async function recordApp(options: { runtime: 'genkit-go' | 'genkit-python'; app: Omit<StartTestAppOptions, 'telemetryServerUrl' | 'markerPath'>; postsPerSpan: number }) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'loopscope-attach-fixtures-'));
  const markerPath = path.join(scratch, 'marker.jsonl');
  const recorder = await startTelemetryRecorder();
  const app = await startTestApp({ ...options.app, telemetryServerUrl: recorder.url, markerPath });
  try {
    const url = app.url;
    const common = { recorder, url };
    const health = await checkHealth({ url });
    const actions = await listActions({ url });
    const planTrip = await record({ ...common, key: '/flow/planTrip', input: { city: 'Lisbon' }, posts: (options.runtime === 'genkit-go' ? 10 : 8) * options.postsPerSpan });
    const adHocInterrupt = await record({ ...common, key: '/tool.v2/bookHotel', input: { city: 'Porto', nights: 2 }, posts: options.postsPerSpan });
    const bookTrip = await record({ ...common, key: '/flow/bookTrip', input: { city: 'Porto' }, posts: 4 * options.postsPerSpan });
    const flow = bookTrip.reply.result as { interrupts: { toolRequest: unknown }[]; messages: unknown[] };
    const resumeInput = (resume: unknown) => ({ model: 'app/scripted', messages: flow.messages, tools: ['bookHotel'], resume });
    const restart = await record({ ...common, key: '/util/generate', input: resumeInput({ restart: [{ toolRequest: flow.interrupts[0].toolRequest, metadata: { resumed: { confirmed: true, confirmedBy: 'alice' } } }] }), posts: (options.runtime === 'genkit-go' ? 5 : 3) * options.postsPerSpan });
    const outputs = { city: 'Porto', nights: 2, confirmedBy: 'by-hand' };
    // genkit Go 1.12 validates a respond to its multipart (interruptible) tool against the envelope {output, content, metadata}.
    const respondOutput = options.runtime === 'genkit-go' ? { output: outputs } : outputs;
    const respond = await record({ ...common, key: '/util/generate', input: resumeInput({ respond: [{ toolResponse: { name: 'bookHotel', ref: 'book-1', output: respondOutput } }] }), posts: (options.runtime === 'genkit-go' ? 4 : 2) * options.postsPerSpan });
    const fixtures = {
      'attach-reflection': { runtimeFile: { name: path.basename(app.runtimeFile.path), content: app.runtimeFile.runtime }, health, actions },
      'attach-flow-run': planTrip,
      'attach-interrupt-resume': { adHocInterrupt, bookTrip, restart, respond },
    };
    const folder = path.join(projectDir, 'lib', 'dialects', options.runtime, '__fixtures__');
    await mkdir(folder, { recursive: true });
    for (const [name, value] of Object.entries(fixtures)) {
      // The marker file's temporary path is the only machine-specific value in the payloads.
      const text = `${JSON.stringify(value).split(markerPath).join("<marker>")}\n`;
      await writeFile(path.join(folder, `${name}.json`), text);
      process.stdout.write(`${options.runtime}: ${path.relative(projectDir, path.join(folder, `${name}.json`))} (${text.length} bytes)\n`);
    }
    process.stdout.write(`${options.runtime}: runtime file after ${app.startMs} ms; ${recorder.requests.length} telemetry requests (${recorder.requests.filter((request) => request.path === '/api/otlp').length} to /api/otlp)\n`);
  } catch (error) {
    process.stderr.write(`${options.runtime}: the app printed:\n${app.output().slice(-3000)}\n`);
    throw error;
  } finally {
    const exit = await app.stop();
    process.stdout.write(`${options.runtime}: SIGTERM → exit ${exit.code ?? exit.signal} in ${exit.ms} ms\n`);
    await recorder.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

const binary = await buildGenkitGoApp({ projectDir });
await recordApp({ runtime: 'genkit-go', app: { command: binary, cwd: path.join(projectDir, GENKIT_GO_APP_DIR), env: { GENKIT_REFLECTION_PORT: String(await freePort()) } }, postsPerSpan: 1 });
const python = await ensureGenkitPythonApp({ projectDir });
await recordApp({ runtime: 'genkit-python', app: genkitPythonAppCommand({ projectDir, python }), postsPerSpan: 2 });
