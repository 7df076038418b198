/**
 * `loopscope start [--port N] [--attach DIR]… [-- <app command…>]`: the production server
 * (scripts/start.js, as `npm start`) with a genkit app attached. With a command, the server runs
 * it as a supervised child in dev mode with Loopscope as its telemetry server (the environment
 * `genkit start` gives an app: lib/server/attach/app-environment.ts) and its reflection API dialing
 * in to Loopscope, so it opens no port of its own (issue 36), in the folder this was called
 * from — INIT_CWD under `npm run`, as genkit's CLI does. Without one, it attaches to the apps
 * already running in dev mode in that folder's project (their `.genkit/runtimes/*.json`), and in
 * each `--attach` folder.
 *
 * In a clone the server is a child process (not this one, which has tsx registered for every
 * module: Next's own code must load untouched); signals are passed on and its exit code is this
 * command's. In the installed package (no tsx anywhere) it runs in this process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ATTACH_ENVIRONMENT } from '../server/attach/attach-service';
import { cliInstall } from './cli-paths';

export class StartUsageError extends Error {}

export interface StartArguments {
  port?: string;
  attach: string[];
  command: string[];
}

/** Splits `start`'s arguments: options before `--`, the app's argv after it (kept as given). */
export function parseStartArguments(argv: readonly string[]): StartArguments {
  const separator = argv.indexOf('--');
  const options = separator < 0 ? argv : argv.slice(0, separator);
  const command = separator < 0 ? [] : argv.slice(separator + 1);
  const parsed: StartArguments = { attach: [], command: [...command] };
  for (let index = 0; index < options.length; index += 1) {
    const option = options[index];
    const value = options[index + 1];
    if (option === '--port' || option === '--attach') {
      if (value === undefined || value.startsWith('--')) throw new StartUsageError(`${option} needs a value.`);
      if (option === '--port') parsed.port = value;
      else parsed.attach.push(value);
      index += 1;
    } else if (option === '--dangerously-expose-to-network' || option.startsWith('--host')) {
      throw new StartUsageError(`${option} is not available with an attached app: its reflection server must stay on loopback (use npm start for that).`);
    } else {
      throw new StartUsageError(`unknown start option "${option}"; the app command goes after --, e.g. loopscope start -- node --import tsx app.ts`);
    }
  }
  if (separator >= 0 && command.length === 0) throw new StartUsageError('nothing after --: give the command that starts your app, e.g. loopscope start -- npm run dev');
  return parsed;
}

/** Runs the server with the app until the server exits; returns its exit code. */
export function runStartCommand(options: { argv: readonly string[]; environment: NodeJS.ProcessEnv }): Promise<number> {
  const parsed = parseStartArguments(options.argv);
  // The server runs in Loopscope's own folder (the clone, or the installed package): its
  // scripts/start.js, its build, and its runner are there; the app runs in the caller's folder.
  const install = cliInstall();
  const projectDir = install.root;
  // npm run changes the working directory to the package; INIT_CWD is where the user typed the command.
  const callerDir = options.environment.INIT_CWD ?? process.cwd();
  const environment: NodeJS.ProcessEnv = {
    ...options.environment,
    [ATTACH_ENVIRONMENT.cwd]: callerDir,
    [ATTACH_ENVIRONMENT.dirs]: JSON.stringify(parsed.attach.map((dir) => path.resolve(callerDir, dir))),
  };
  if (parsed.command.length > 0) environment[ATTACH_ENVIRONMENT.command] = JSON.stringify(parsed.command);
  else delete environment[ATTACH_ENVIRONMENT.command];
  const args = [path.join(projectDir, 'scripts/start.js'), ...(parsed.port ? ['--port', parsed.port] : [])];
  if (install.mode === 'package') return runServerHere({ projectDir, environment, args });
  const server = spawn(process.execPath, args, { cwd: projectDir, env: environment, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => server.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    server.once('close', (code, signal) => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 143));
    });
  });
}

/**
 * The installed package registers no TypeScript loader in this process, so its server runs here
 * rather than in a child: one Node start fewer between `npx loopscope start` and the app attached
 * (bench/package.bench.ts). scripts/start.js sees what a child would (its arguments, environment
 * and working folder); it handles the signals and ends the process itself, so this never resolves.
 */
async function runServerHere(options: { projectDir: string; environment: NodeJS.ProcessEnv; args: string[] }): Promise<number> {
  for (const key of Object.keys(process.env)) if (!(key in options.environment)) delete process.env[key];
  Object.assign(process.env, options.environment);
  process.chdir(options.projectDir);
  process.argv = [process.argv[0], ...options.args];
  await import(pathToFileURL(options.args[0]).href);
  return new Promise<number>(() => undefined);
}
