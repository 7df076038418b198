#!/usr/bin/env node
/**
 * Starts the production Loopscope server and prints the start banner.
 *
 *   npm start [-- --port 4747] [--host 127.0.0.1] [--dangerously-expose-to-network]
 *
 * A custom server around Next's request handler instead of `next start`, so that Loopscope
 * owns the sockets: it listens on 127.0.0.1 and [::1], cuts clients that send headers or
 * bodies too slowly, and answers 413 to an oversized Content-Length before reading the body
 * (lib/server/http/start-http-servers.ts). Settings: docs/settings.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const DEFAULT_PORT = 4747;

function fail(message) {
  console.error(`loopscope: ${message}`);
  process.exit(2);
}

// lib/server's part of this script (lib/server/server-entry.ts): in a clone its TypeScript source
// through tsx, a scoped loader (Next's own code runs untouched); in the installed package its
// bundle, with no TypeScript loader at all (lib/install/loopscope-install.ts).
const entryPoints = JSON.parse(readFileSync(path.join(projectDir, 'lib/install/entry-points.json'), 'utf8'));
const serverSource = path.join(projectDir, entryPoints.programs.sources.server);
const server = existsSync(serverSource)
  ? await (await import('tsx/esm/api')).tsImport(pathToFileURL(serverSource).href, import.meta.url)
  : await import(pathToFileURL(path.join(projectDir, entryPoints.programs.bundleDir, 'server.js')).href);
const { planListen, startHttpServers, readHttpTimeouts, readForwarding, createOtlpFastPath, createRunsFastPath, createRuntimesFastPath, createEventsFastPath, existingAppContext, getAppContext, startRunners, createReflectionDoor } = server;
const install = server.loopscopeInstall(projectDir);
// The Next app: built in the clone's .next/ (npm run build); prebuilt in the package's dist/web/,
// beside the part of Next's runtime it needs (scripts/build-package.ts).
const nextDir = install.mode === 'source' ? projectDir : path.join(projectDir, entryPoints.web.bundleDir);

const port = Number(option('--port') ?? process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`"${option('--port') ?? process.env.PORT}" is not a port number.`);
let plan;
try {
  plan = planListen({ host: option('--host') ?? '127.0.0.1', dangerouslyExposeToNetwork: args.includes('--dangerously-expose-to-network') });
} catch (error) {
  fail(error.message);
}
let forwarding;
try {
  forwarding = readForwarding(process.env, port);
} catch (error) {
  fail(error.message);
}
// Next's distDir: .next in a clone, the package build's own folder in the package (next.config.js).
const distDir = path.join(nextDir, install.mode === 'source' ? '.next' : entryPoints.web.buildDir);
if (!existsSync(path.join(distDir, 'BUILD_ID'))) {
  fail(
    install.mode === 'source'
      ? 'no production build found. Run `npm run build` first (or `npm run serve` to install, build and start).'
      : `this Loopscope package has no prebuilt web app (${distDir} is missing): it was packed without its build; reinstall it from a tarball made by \`npm pack\` in a clone.`,
  );
}

// Before Next loads: every bundle of the server (proxy, route handlers, instrumentation)
// reads the port and the token from the environment.
const token = process.env.LOOPSCOPE_TOKEN || randomBytes(24).toString('base64url');
Object.assign(process.env, { PORT: String(port), LOOPSCOPE_TOKEN: token, NODE_ENV: 'production' });
if (plan.extraHost) process.env.LOOPSCOPE_EXTRA_HOST = plan.extraHost;
else delete process.env.LOOPSCOPE_EXTRA_HOST;

// The process-wide context first (the store, the runners' supervisor, the app to attach), made by
// this script's copy of lib/server, and the runners started with it (once the app attached, when
// there is one: lib/server/runners/start-runners.ts); then the server listens and the app starts,
// and only then is Next loaded: the app boots (≈1 s of genkit) while Next loads its build, not
// after (bench/package.bench.ts times it). A request that comes before the build is loaded waits
// for it. prepare() runs instrumentation.ts, which finds this context and does nothing more.
const context = getAppContext();
startRunners(context);
let resolveHandler;
const nextHandler = new Promise((resolve) => (resolveHandler = resolve));
let servers;
try {
  // POST /v1/traces, POST /api/runs, GET /api/runtimes and the event stream are answered here,
  // before Next, with the process-wide context (lib/server/http/otlp-fast-path.ts,
  // runs-fast-path.ts, runtimes-fast-path.ts, events-fast-path.ts); every other request goes to Next.
  const guard = { port, token, extraHost: plan.extraHost };
  const otlp = createOtlpFastPath({ context: existingAppContext, guard });
  const runs = createRunsFastPath({ context: existingAppContext, guard });
  const runtimes = createRuntimesFastPath({ context: existingAppContext, guard });
  const direct = (request) => otlp(request) ?? runs(request) ?? runtimes(request);
  const stream = createEventsFastPath({ context: existingAppContext, guard });
  // The WebSocket the app `loopscope start -- <cmd>` runs dials in on (genkit's reflection API v2).
  const upgrade = createReflectionDoor({ attachment: () => existingAppContext()?.attachment, guard });
  const handle = (request, response) => nextHandler.then((handler) => handler(request, response));
  servers = await startHttpServers({ handle, port, plan, timeouts: readHttpTimeouts(), direct, stream, upgrade });
} catch (error) {
  console.error(`loopscope: cannot listen on port ${port}: ${error.message}`);
  process.exit(1);
}
// Started once the server listens: the app dials in to this port as it starts (genkit Go panics
// when that fails; lib/server/attach/attach-service.ts createAttachment).
context.attachment.app?.start();

let app;
try {
  let next;
  if (install.mode === 'source') next = (await import('next')).default;
  else {
    // The package's Next is the traced runtime beside its build (not a dependency of the developer's
    // project), which has no config loader: like Next's own standalone server, it is handed the
    // config the build serialized.
    process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(path.join(distDir, 'required-server-files.json'), 'utf8')).config);
    next = createRequire(path.join(nextDir, 'package.json'))('next');
  }
  app = next({ dev: false, dir: nextDir, hostname: '127.0.0.1', port });
  await app.prepare();
  resolveHandler(app.getRequestHandler());
} catch (error) {
  console.error(`loopscope: the web app could not be loaded from ${distDir}: ${error.message}`);
  await context.attachment.app?.stop();
  process.exit(1);
}

let stopping = false;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // The runner exits by itself when its IPC channel closes with this process.
    const exit = () => process.exit(code);
    setTimeout(exit, 3_000).unref();
    servers.close().then(() => app?.close()).finally(exit);
  });
}

const base = `http://127.0.0.1:${port}`;
const paths = server.loopscopePaths({ install, workDir: path.resolve(process.env.LOOPSCOPE_APP_CWD ?? projectDir), environment: process.env });
const ipv6 = servers.listening.includes('::1') || servers.listening.includes('::');
const ipv6Problem = servers.unavailable.find((entry) => entry.address === '::1');
console.log(
  [
    '',
    '  Loopscope is running',
    `  ➜ Open:    ${base}/#token=${token}`,
    `  ➜ Token:   ${token}   (API calls: Authorization: Bearer <token>)`,
    `  ➜ OTLP:    OTEL_EXPORTER_OTLP_ENDPOINT=${base}   (traces go to ${base}/v1/traces)`,
    ipv6 ? `  ➜ IPv6:    http://[::1]:${port} and localhost work too` : `  ➜ IPv6:    not listening on [::1] (${ipv6Problem?.reason ?? 'not bound'}); use 127.0.0.1`,
    ...(plan.extraHost ? [`  ➜ Exposed: http://${plan.extraHost}:${port}  (--dangerously-expose-to-network)`] : []),
    `  ➜ Data:    ${paths.dataDir} (captured) · ${paths.savedDir} (saved)`,
    ...(process.env.LOOPSCOPE_APP_COMMAND ? [`  ➜ App:     ${JSON.parse(process.env.LOOPSCOPE_APP_COMMAND).join(' ')}  (in ${process.env.LOOPSCOPE_APP_CWD}; output prefixed [app]; GENKIT_ENV=dev, GENKIT_TELEMETRY_SERVER=${base}/genkit; its reflection API connects to Loopscope, no port of its own)`] : []),
    ...(process.env.LOOPSCOPE_APP_CWD ? [`  ➜ Attach:  genkit apps running in dev mode under ${process.env.LOOPSCOPE_APP_CWD} (.genkit/runtimes/): ${base}/apps`] : []),
    ...(forwarding ? [`  ➜ Forward: every received span also goes to ${forwarding.url} (LOOPSCOPE_FORWARD_OTLP)`] : []),
    '',
  ].join('\n'),
);
