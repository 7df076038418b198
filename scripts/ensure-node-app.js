#!/usr/bin/env node
/**
 * The npm packages of one of the project's Node apps (a folder with its own package.json and
 * package-lock.json: a framework Loopscope reads but does not depend on, such as Mastra), installed
 * OUTSIDE the repository in the user's cache, keyed by the lock file and the Node version:
 * `<cache>/node-apps/<name>-<hash>/node_modules`, then linked as the app folder's `node_modules`
 * (git-ignored), so the app's imports resolve as in any project. A second call with the same lock
 * returns at once.
 *
 *   node scripts/ensure-node-app.js <app folder> [--name <name>]   # prints the app folder
 *
 * The cache is the one scripts/ensure-venv.js uses ($LOOPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/loopscope,
 * ~/.cache/loopscope).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopscopeCacheDir } from './ensure-venv.js';

const FILES = ['package.json', 'package-lock.json'];

/** Installs (or finds) the app's packages and links them into the app folder; throws an Error naming what failed. */
export function ensureNodeApp({ appDir, name = path.basename(appDir), log = (message) => process.stderr.write(`${name}: ${message}\n`) }) {
  for (const file of FILES) if (!existsSync(path.join(appDir, file))) throw new Error(`${appDir} has no ${file} (pin the app's packages with a lock file)`);
  const hash = createHash('sha256')
    .update(JSON.stringify([process.version, ...FILES.map((file) => readFileSync(path.join(appDir, file), 'utf8'))]))
    .digest('hex')
    .slice(0, 16);
  const installed = path.join(loopscopeCacheDir(), 'node-apps', `${name}-${hash}`);
  if (!existsSync(path.join(installed, '.loopscope-ready'))) {
    const building = `${installed}.building-${process.pid}`;
    const started = Date.now();
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    try {
      for (const file of FILES) copyFileSync(path.join(appDir, file), path.join(building, file));
      log(`npm ci in ${installed}`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: building, stdio: ['ignore', 'inherit', 'inherit'] });
      writeFileSync(path.join(building, '.loopscope-ready'), `${hash}\n`);
      rmSync(installed, { recursive: true, force: true });
      renameSync(building, installed);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      throw new Error(`could not install ${path.join(appDir, 'package-lock.json')}: ${error.message}`, { cause: error });
    }
    log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const link = path.join(appDir, 'node_modules');
  const target = path.join(installed, 'node_modules');
  let current;
  try {
    current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : 'not a link';
  } catch {
    current = undefined;
  }
  if (current !== target) {
    if (current === 'not a link') throw new Error(`${link} is a real folder; remove it so the cached install can be linked there`);
    rmSync(link, { force: true });
    symlinkSync(target, link, 'dir');
  }
  return appDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const nameIndex = args.indexOf('--name');
  const name = nameIndex >= 0 ? args[nameIndex + 1] : undefined;
  const appDir = args.find((arg, index) => !arg.startsWith('--') && index !== nameIndex + 1);
  if (!appDir) {
    process.stderr.write('usage: node scripts/ensure-node-app.js <app folder> [--name <name>]\n');
    process.exit(2);
  }
  try {
    process.stdout.write(`${ensureNodeApp({ appDir: path.resolve(appDir), name })}\n`);
  } catch (error) {
    process.stderr.write(`ensure-node-app: ${error.message}\n`);
    process.exit(1);
  }
}
