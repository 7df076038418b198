// Fresh data folders for every e2e run, made before the server starts; saved traces start
// as a copy of the shipped ones so tests never write into traces/.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';

rmSync('.loopscope-e2e', { recursive: true, force: true });
mkdirSync('.loopscope-e2e/data', { recursive: true });
mkdirSync('.loopscope-e2e/traces', { recursive: true });
if (existsSync('traces')) cpSync('traces', '.loopscope-e2e/traces', { recursive: true });
