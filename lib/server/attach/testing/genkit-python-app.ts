import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * examples/apps/genkit-python: a genkit Python app (the `genkit` package from PyPI, pinned in its
 * requirements.txt) with a scripted model `app/scripted`, tools getWeather, convertTemperature,
 * writeMarker and the interrupting bookHotel, and flows planTrip and bookTrip.
 */
export const GENKIT_PYTHON_APP_DIR = path.join('examples', 'apps', 'genkit-python');

/**
 * The venv's python with the app's requirements installed (scripts/ensure-python-app.js: about
 * 25–30 s on a fresh machine, under a second once done).
 */
export async function ensureGenkitPythonApp(options: { projectDir: string }): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(options.projectDir, 'scripts', 'ensure-python-app.js')], { cwd: options.projectDir, timeout: 600_000, maxBuffer: 8 << 20 });
  return stdout.trim().split('\n').pop()!;
}

/** The command that runs the app (cwd: the app's folder, where genkit Python writes `.genkit/runtimes/`), and the line that says it is ready. */
export function genkitPythonAppCommand(options: { projectDir: string; python: string }): { command: string; args: string[]; cwd: string; readyOutput: RegExp } {
  const cwd = path.join(options.projectDir, GENKIT_PYTHON_APP_DIR);
  // Its runtime file can appear before app.py has defined its flows; `ai.run_main` logs this once it has.
  return { command: options.python, args: ['app.py'], cwd, readyOutput: /Dev UI ready/ };
}
