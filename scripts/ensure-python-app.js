#!/usr/bin/env node
/**
 * The genkit Python test app (examples/apps/genkit-python) needs the `genkit` package from PyPI:
 * its venv lives in the user's cache, keyed by the Python version and the pinned requirement
 * files (scripts/ensure-venv.js), and this prints its python on stdout. Idempotent.
 *
 *   node scripts/ensure-python-app.js      # prints the venv's python on stdout
 *
 * LOOPSCOPE_PYTHON picks the interpreter (default python3); LOOPSCOPE_CACHE_DIR the cache.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVenv } from './ensure-venv.js';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  process.stdout.write(`${ensureVenv({ appDir: path.join(projectDir, 'examples', 'apps', 'genkit-python'), name: 'genkit-python-app' })}\n`);
} catch (error) {
  process.stderr.write(`python-app: ${error.message}\n`);
  process.exit(1);
}
