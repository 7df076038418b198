#!/usr/bin/env node
/**
 * End-to-end tests drive Debian's Chromium (/usr/bin/chromium); Playwright's own browser
 * download cannot work on this network. Installs the `chromium` package when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.LOOPSCOPE_CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) {
  console.log(`chromium: found ${CHROMIUM}`);
  process.exit(0);
}
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const prefix = asRoot ? [] : ['sudo', '-n'];
const run = (command) => {
  const [file, ...args] = [...prefix, ...command];
  console.log(`chromium: ${[file, ...args].join(' ')}`);
  execFileSync(file, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
try {
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
} catch (error) {
  console.error(`chromium: could not install Debian's chromium package (${error.message}). Install it with: apt-get install chromium`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`chromium: the package installed but ${CHROMIUM} is missing.`);
  process.exit(1);
}
