#!/usr/bin/env node
/**
 * A Python virtual environment for one of the project's Python apps (a folder with a pinned
 * requirements.txt and, optionally, constraints.txt), kept OUTSIDE the repository in the user's
 * cache and keyed by what it holds: `<cache>/venvs/<name>-<hash>`, where the hash covers the
 * Python version and the requirement files. A second call with the same files returns at once;
 * a changed pin makes a new folder, so two checkouts on different pins never fight over one venv.
 *
 *   node scripts/ensure-venv.js <app folder> [--name <name>]   # prints the venv's python on stdout
 *
 * The cache is $LOOPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/loopscope, else ~/.cache/loopscope.
 * LOOPSCOPE_PYTHON picks the interpreter (default python3, 3.10 or newer).
 * Needs only python3 with its venv module and pip, and PyPI.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder Loopscope caches installed environments in (never inside the repository). */
export function loopscopeCacheDir(environment = process.env) {
  if (environment.LOOPSCOPE_CACHE_DIR) return path.resolve(environment.LOOPSCOPE_CACHE_DIR);
  if (environment.XDG_CACHE_HOME) return path.join(environment.XDG_CACHE_HOME, 'loopscope');
  return path.join(os.homedir(), '.cache', 'loopscope');
}

const REQUIREMENT_FILES = ['requirements.txt', 'constraints.txt'];

/**
 * Makes (or finds) the venv for the app folder and returns its python. Throws an Error naming
 * what failed (no python, a pip install that did not finish); a half-made venv is removed.
 */
export function ensureVenv({ appDir, name = path.basename(appDir), log = (message) => process.stderr.write(`${name}: ${message}\n`) }) {
  const basePython = process.env.LOOPSCOPE_PYTHON ?? 'python3';
  let version;
  try {
    version = execFileSync(basePython, ['-c', 'import sys; print(sys.version)'], { encoding: 'utf8' }).trim();
  } catch (error) {
    throw new Error(`${basePython} does not run (${error.message}); install Python 3.10+ or set LOOPSCOPE_PYTHON.`, { cause: error });
  }
  const files = REQUIREMENT_FILES.filter((file) => existsSync(path.join(appDir, file)));
  if (!files.includes('requirements.txt')) throw new Error(`${appDir} has no requirements.txt`);
  const hash = createHash('sha256')
    .update(JSON.stringify([version, ...files.map((file) => [file, readFileSync(path.join(appDir, file), 'utf8')])]))
    .digest('hex')
    .slice(0, 16);
  const venv = path.join(loopscopeCacheDir(), 'venvs', `${name}-${hash}`);
  const venvPython = path.join(venv, 'bin', 'python');
  const stampFile = path.join(venv, '.loopscope-ready');
  if (existsSync(venvPython) && existsSync(stampFile)) return venvPython;

  // Built beside its final place and renamed when whole: a run cut short leaves no venv that looks ready.
  const building = `${venv}.building-${process.pid}`;
  const started = Date.now();
  rmSync(building, { recursive: true, force: true });
  mkdirSync(path.dirname(venv), { recursive: true });
  try {
    log(`creating ${venv} with ${basePython} (${version.split(' ')[0]})`);
    execFileSync(basePython, ['-m', 'venv', building], { stdio: ['ignore', 'inherit', 'inherit'] });
    const pipArgs = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', 'requirements.txt'];
    if (files.includes('constraints.txt')) pipArgs.push('-c', 'constraints.txt');
    log(`pip install ${pipArgs.slice(6).join(' ')}`);
    execFileSync(path.join(building, 'bin', 'python'), pipArgs, { cwd: appDir, stdio: ['ignore', 'inherit', 'inherit'] });
    writeFileSync(path.join(building, '.loopscope-ready'), `${hash}\n`);
    rmSync(venv, { recursive: true, force: true });
    renameSync(building, venv);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`could not install ${path.join(appDir, 'requirements.txt')}: ${error.message}`, { cause: error });
  }
  // A venv's scripts name its own path: they were written for the building folder. Python itself
  // does not care (bin/python finds pyvenv.cfg beside it), and the apps run `python -m`, never a script.
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return venvPython;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const nameIndex = args.indexOf('--name');
  const name = nameIndex >= 0 ? args[nameIndex + 1] : undefined;
  const appDir = args.find((arg, index) => !arg.startsWith('--') && index !== nameIndex + 1);
  if (!appDir) {
    process.stderr.write('usage: node scripts/ensure-venv.js <app folder> [--name <name>]\n');
    process.exit(2);
  }
  try {
    process.stdout.write(`${ensureVenv({ appDir: path.resolve(appDir), name })}\n`);
  } catch (error) {
    process.stderr.write(`ensure-venv: ${error.message}\n`);
    process.exit(1);
  }
}
