#!/usr/bin/env node
/**
 * Starts the production Loopscope server on 127.0.0.1 and prints the start banner.
 *
 *   npm start [-- --port 4747] [--host 127.0.0.1] [--dangerously-expose-to-network]
 *
 * Settings: PORT, LOOPSCOPE_TOKEN (fixed token for scripts and tests; random otherwise),
 * LOOPSCOPE_DATA_DIR (captured traces; default .loopscope/).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const DEFAULT_PORT = 4747;

const port = Number(option('--port') ?? process.env.PORT ?? DEFAULT_PORT);
const host = option('--host') ?? '127.0.0.1';
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`loopscope: "${option('--port') ?? process.env.PORT}" is not a port number.`);
  process.exit(2);
}
if (!LOOPBACK.has(host) && !args.includes('--dangerously-expose-to-network')) {
  console.error(
    `loopscope: refusing to listen on ${host}: Loopscope runs local code from a web page and binds loopback only.\n` +
      'Add --dangerously-expose-to-network if you really mean to let other machines reach it.',
  );
  process.exit(2);
}
if (!existsSync(path.join(projectDir, '.next', 'BUILD_ID'))) {
  console.error('loopscope: no production build found. Run `npm run build` first (or `npm run serve` to install, build and start).');
  process.exit(2);
}

const token = process.env.LOOPSCOPE_TOKEN || randomBytes(24).toString('base64url');
const environment = { ...process.env, PORT: String(port), LOOPSCOPE_TOKEN: token, NODE_ENV: 'production' };
if (!LOOPBACK.has(host)) environment.LOOPSCOPE_EXTRA_HOST = host;

const nextBin = path.join(projectDir, 'node_modules', 'next', 'dist', 'bin', 'next');
const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', String(port)], {
  cwd: projectDir,
  env: environment,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Next's own banner names a URL without the token; keep only its other lines.
child.stdout.on('data', (chunk) => {
  for (const line of chunk.toString().split('\n')) {
    if (line.trim() && !/Local:|Network:|Ready in|▲ Next/.test(line)) process.stdout.write(`${line}\n`);
  }
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function probe() {
  const request = http.get({ host: host === 'localhost' ? '127.0.0.1' : host, port, path: '/api/runner', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } }, (response) => {
    response.resume();
    const base = `http://127.0.0.1:${port}`;
    console.log(
      [
        '',
        '  Loopscope is running',
        `  ➜ Open:    ${base}/#token=${token}`,
        `  ➜ Token:   ${token}   (API calls: Authorization: Bearer <token>)`,
        `  ➜ OTLP:    OTEL_EXPORTER_OTLP_ENDPOINT=${base}   (traces go to ${base}/v1/traces)`,
        `  ➜ Data:    ${process.env.LOOPSCOPE_DATA_DIR ?? '.loopscope/'} (captured) · traces/ (saved)`,
        '',
      ].join('\n'),
    );
  });
  request.on('error', () => setTimeout(probe, 200));
}
setTimeout(probe, 300);
