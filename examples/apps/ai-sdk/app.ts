/**
 * A developer's own Vercel AI SDK app, as Loopscope steps it: a small HTTP service whose
 * `POST /trip {"request": "Plan a trip to Kyoto for 4 nights"}` runs the agent loop of
 * trip-agent.ts and answers with its text (also printed). Loopscope is one line here
 * (`loopscopeTelemetry()`) and the marked lines in trip-agent.ts.
 *
 *   npx loopscope start -- node --import tsx app.ts     (EXAMPLE_PORT, default 3488)
 *
 * Under `loopscope start` the app gets LOOPSCOPE_URL and LOOPSCOPE_APP_SECRET: its calls are runs
 * on Loopscope's run page, paused where the Apps page's mode for `trip-agent` says. Markers of
 * bookings go to EXAMPLE_MARKERS_DIR (default: `.markers/` here).
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Loopscope: in your own app, `from 'loopscope/ai-sdk'`.
import { loopscopeTelemetry } from '../../../lib/runtimes/ai-sdk/app-package/index';
import { planTrip } from './trip-agent';

// Loopscope: the one line — spans to Loopscope, each call a run there.
const telemetry = loopscopeTelemetry();

const here = path.dirname(fileURLToPath(import.meta.url));
const markers = process.env.EXAMPLE_MARKERS_DIR ?? path.join(here, '.markers');
const port = Number(process.env.EXAMPLE_PORT ?? 3488);

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const server = http.createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/trip') {
    response.writeHead(404).end();
    return;
  }
  void (async () => {
    try {
      const { request: asked } = JSON.parse(await readBody(request)) as { request: string };
      const { text, calls } = await planTrip({ request: asked, markers });
      console.log(`trip-agent answered (${calls} call(s)): ${text}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text, calls }));
    } catch (error) {
      console.error(`trip-agent failed: ${(error as Error).message}`);
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
    }
  })();
});

server.listen(port, '127.0.0.1', () => {
  console.log(`trip-agent listening on http://127.0.0.1:${port} (pid ${process.pid}; Loopscope at ${telemetry.url}, ${telemetry.connected ? 'calls are runs there' : 'spans only'})`);
});
