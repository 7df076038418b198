#!/usr/bin/env node
/**
 * The genkit Python test app (examples/apps/genkit-python) needs the `genkit` package from PyPI:
 * creates a venv in .loopscope-cache/python-app-venv (git-ignored) and pip-installs the pinned
 * requirements with their constraints. Idempotent: a stamp holds a hash of the requirement files
 * and the Python version, and a matching stamp returns at once. Needs only python3 (3.10+),
 * its venv module with pip, and PyPI.
 *
 *   node scripts/ensure-python-app.js      # prints the venv's python on stdout
 *
 * LOOPSCOPE_PYTHON picks the interpreter (default python3); LOOPSCOPE_PYTHON_APP_VENV the venv folder.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appDir = path.join(projectDir, 'examples', 'apps', 'genkit-python');
const venv = path.resolve(projectDir, process.env.LOOPSCOPE_PYTHON_APP_VENV ?? path.join('.loopscope-cache', 'python-app-venv'));
const venvPython = path.join(venv, 'bin', 'python');
const stampFile = path.join(venv, '.loopscope-stamp');
const basePython = process.env.LOOPSCOPE_PYTHON ?? 'python3';
const log = (message) => process.stderr.write(`python-app: ${message}\n`);

function pythonVersion(python) {
  return execFileSync(python, ['-c', 'import sys; print(sys.version)'], { encoding: 'utf8' }).trim();
}

const files = ['requirements.txt', 'constraints.txt'].map((name) => readFileSync(path.join(appDir, name), 'utf8'));
let version;
try {
  version = pythonVersion(basePython);
} catch (error) {
  log(`${basePython} does not run (${error.message}); install Python 3.10+ or set LOOPSCOPE_PYTHON.`);
  process.exit(1);
}
const stamp = createHash('sha256').update(JSON.stringify([version, ...files])).digest('hex');

if (existsSync(venvPython) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp) {
  process.stdout.write(`${venvPython}\n`);
  process.exit(0);
}

const started = Date.now();
try {
  rmSync(venv, { recursive: true, force: true });
  log(`creating ${path.relative(projectDir, venv)} with ${basePython} (${version.split(' ')[0]})`);
  execFileSync(basePython, ['-m', 'venv', venv], { stdio: ['ignore', 'inherit', 'inherit'] });
  log('pip install -r requirements.txt -c constraints.txt');
  execFileSync(venvPython, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', 'requirements.txt', '-c', 'constraints.txt'], { cwd: appDir, stdio: ['ignore', 'inherit', 'inherit'] });
  execFileSync(venvPython, ['-c', 'import genkit'], { stdio: ['ignore', 'inherit', 'inherit'] });
} catch (error) {
  log(`could not install the genkit Python app's requirements: ${error.message}`);
  process.exit(1);
}
writeFileSync(stampFile, `${stamp}\n`);
log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.stdout.write(`${venvPython}\n`);
