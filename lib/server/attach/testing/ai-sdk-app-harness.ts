/**
 * What the AI SDK app tests share: Loopscope's real doors on an HTTP port — the OTLP receiver
 * (createOtlpFastPath: guard, body limit, decoder, store), the step door and the AI SDK app door
 * (answered as their Next routes answer them) — and an AppContext with the store, the runs,
 * AttachedSteps and AiSdkApps (no built-in runner), so the run service and the resume service act
 * on the app's runs as the server does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { TraceStore } from '../../../store/trace-store';
import type { Span } from '../../../spans/span';
import type { AppContext } from '../../app-context';
import { IngestGate } from '../../ingest/ingest-gate';
import { errorMessage, LoopscopeError } from '../../../errors';
import { createOtlpFastPath } from '../../http/otlp-fast-path';
import { RunRegistry } from '../../services/run-registry';
import { freePort } from '../../testing/free-port';
import { AiSdkApps } from '../ai-sdk-apps';
import { answerAiSdkDoor } from '../ai-sdk-door';
import { AttachedSteps } from '../attached-steps';
import { answerStepDoor } from '../step-door';

export interface AiSdkAppHarness {
  url: string;
  /** The secret `loopscope start -- <cmd>` would give the app. */
  appSecret: string;
  /** Loopscope's API token. */
  apiToken: string;
  context: AppContext;
  store: TraceStore;
  apps: AiSdkApps;
  /** Every span that arrived at the OTLP door. */
  received: Span[];
  /** Every door request: path and status. */
  requests: { path: string; status: number }[];
  close(): Promise<void>;
}

async function jsonBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/** Answers a door request as its route does: JSON in, JSON or the error's status out; an Origin header is refused first (request-guard.ts). */
async function answerDoor(options: { request: http.IncomingMessage; answer: (body: unknown) => Promise<unknown> }): Promise<{ status: number; body: unknown }> {
  if (options.request.headers.origin !== undefined) return { status: 403, body: { error: { message: 'The step door is for an attached app, not for a web page.' } } };
  try {
    return { status: 200, body: await options.answer(await jsonBody(options.request)) };
  } catch (error) {
    return { status: LoopscopeError.isInstance(error) ? error.httpStatus : 500, body: { error: { message: errorMessage(error) } } };
  }
}

export async function startAiSdkAppHarness(options: { holdMs?: number } = {}): Promise<AiSdkAppHarness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-ai-sdk-app-'));
  const store = new TraceStore({ dataDir, savedDir: path.join(dataDir, 'saved') });
  const port = await freePort();
  const apiToken = 'ai-sdk-app-api-token';
  const appSecret = 'ai-sdk-app-secret-0123456789';
  const received: Span[] = [];
  const receiver = {
    store,
    bus: { publish: (event: { type: string; spans?: Span[] }) => (event.type === 'spans' && event.spans ? received.push(...event.spans) : undefined) },
    ingestGate: new IngestGate(),
  };
  const otlp = createOtlpFastPath({ context: () => receiver, guard: { port, token: apiToken } });
  const runs = new RunRegistry(() => undefined);
  const attachedSteps = new AttachedSteps({
    onPause: (runId, pause) => runs.addPause(runId, pause),
    onPauseEnded: (runId, pauseId) => runs.removePause(runId, pauseId),
    onTrace: (runId, traceId) => runs.addTrace(runId, traceId),
    onSpanStart: (span) => runs.recordSpanStart(span),
  });
  const apps = new AiSdkApps({ runs, steps: attachedSteps, ...(options.holdMs ? { holdMs: options.holdMs } : {}) });
  const requests: { path: string; status: number }[] = [];
  const reply = ({ response, answered, where }: { response: http.ServerResponse; answered: { status: number; body: unknown }; where: string }) => {
    requests.push({ path: where, status: answered.status });
    response.writeHead(answered.status, { 'content-type': 'application/json' }).end(JSON.stringify(answered.body ?? null));
  };
  const server = http.createServer((request, response) => {
    const where = request.url ?? '';
    const stepOp = /^\/attach\/step\/([\w-]+)$/.exec(where)?.[1];
    const appOp = /^\/attach\/ai-sdk\/([\w-]+)$/.exec(where)?.[1];
    const authorization = request.headers.authorization ?? null;
    if (stepOp) {
      void answerDoor({ request, answer: (body) => answerStepDoor({ steps: attachedSteps, op: stepOp, authorization, body }) }).then((answered) => reply({ response, answered, where }));
      return;
    }
    if (appOp) {
      void answerDoor({ request, answer: (body) => answerAiSdkDoor({ apps, credentials: { appSecret, apiToken }, op: appOp, authorization, body }) }).then((answered) => reply({ response, answered, where }));
      return;
    }
    const answer = otlp(request);
    if (!answer) {
      requests.push({ path: where, status: 404 });
      response.writeHead(404).end();
      return;
    }
    void answer.then((otlpReply) => {
      requests.push({ path: where, status: otlpReply.status });
      response.writeHead(otlpReply.status, otlpReply.headers).end(Buffer.from(otlpReply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const noRunner = { holdsRun: () => false, command: async () => ({ ok: false, message: 'not a runner run' }), status: { tools: [], aiSdkTools: [], models: [], scenarios: [] } };
  const context = { store, runs, attachedSteps, aiSdkApps: apps, goRunner: noRunner, supervisor: noRunner, config: { port } } as unknown as AppContext;
  return {
    url: `http://127.0.0.1:${port}`,
    appSecret,
    apiToken,
    context,
    store,
    apps,
    received,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
