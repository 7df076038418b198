#!/usr/bin/env node
/**
 * The `loopscope` command (package.json `bin`): `npx loopscope …` in a developer's project with
 * the package installed (`npm i -D ./loopscope-*.tgz`), or in a clone after `npm ci`, the same
 * as `npm run -s loopscope -- …`.
 *
 * Checks the Node version first, in syntax every Node still parses, so an old Node gets a
 * sentence instead of a SyntaxError. Then runs the CLI in this process: its bundle in the
 * package (dist/bin/cli.js: no TypeScript loader), its source lib/cli/main.ts with tsx
 * registered in a clone (lib/install/loopscope-install.ts has the rule). Both are found from this
 * package's own folder, not the caller's, so it works from any folder; trace paths stay relative
 * to where it was called. In-process rather than a child: argv, stdio, signals and the exit code
 * are the command's own, and no wrapper process can outlive its child (docs/runtime-notes.md,
 * "The runner child process": the tsx CLI wrapper).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));

/** The lowest Node this runs on: Next 16's own floor (the server) and better-sqlite3 12's. */
const NODE_FLOOR = [20, 9];

function nodeTooOld(version) {
  const [major, minor] = version.split('.').map(Number);
  return major < NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor < NODE_FLOOR[1]);
}

async function main() {
  if (nodeTooOld(process.versions.node)) {
    process.stderr.write(`loopscope: Node.js ${NODE_FLOOR.join('.')} or newer is needed; this is Node.js ${process.versions.node} (${process.execPath}). Install a current Node.js LTS (https://nodejs.org) and run the command again.\n`);
    process.exitCode = 2;
    return;
  }
  const command = process.argv[2];
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`loopscope ${manifest.version} (Node.js ${process.versions.node})\n`);
    return;
  }
  const entryPoints = JSON.parse(readFileSync(path.join(projectDir, 'lib/install/entry-points.json'), 'utf8'));
  const source = path.join(projectDir, entryPoints.programs.sources.cli);
  if (existsSync(source)) {
    // Resolved from this file, i.e. from the clone's own node_modules; the clone's tsconfig.json,
    // not whichever one the working directory has.
    const { register } = await import('tsx/esm/api');
    register({ tsconfig: path.join(projectDir, 'tsconfig.json') });
    // main.ts reads process.argv.slice(2) (the arguments after this script) and sets process.exitCode.
    await import(pathToFileURL(source).href);
    return;
  }
  await import(pathToFileURL(path.join(projectDir, entryPoints.programs.bundleDir, 'cli.js')).href);
}

main().catch((error) => {
  process.stderr.write(`loopscope: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
