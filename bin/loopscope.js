#!/usr/bin/env node
/**
 * The `loopscope` command (package.json `bin`): `npx loopscope graph traces/…` from a clone
 * after `npm ci`, the same as `npm run -s loopscope -- graph traces/…`.
 *
 * Runs lib/cli/main.ts in this process with tsx registered, both found from this package's own
 * folder (not the caller's working directory), so it works from any folder; trace paths stay
 * relative to where it was called. In-process rather than a child `node --import tsx`: argv,
 * stdio, signals and the exit code are the command's own, and no wrapper process can outlive
 * its child (docs/runtime-notes.md, "The runner child process": the tsx CLI wrapper).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Resolved from this file, i.e. from the package's own node_modules.
import { register } from 'tsx/esm/api';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The project's tsconfig.json, not whichever one the working directory has.
register({ tsconfig: path.join(projectDir, 'tsconfig.json') });
// main.ts reads process.argv.slice(2) (the arguments after this script) and sets process.exitCode.
await import(pathToFileURL(path.join(projectDir, 'lib/cli/main.ts')).href);
