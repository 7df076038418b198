import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * examples/apps/genkit-go: a genkit Go app (its own module, genkit go v1.12.0 from the module
 * proxy) with a scripted model `app/scripted`, tools getWeather, convertTemperature,
 * writeMarker and the interrupting bookHotel, and flows planTrip and bookTrip.
 */
export const GENKIT_GO_APP_DIR = path.join('examples', 'apps', 'genkit-go');

/**
 * The built app as a test starts it (cwd: the app's folder, where genkit Go writes
 * `.genkit/runtimes/`), and the line it logs once its actions are defined: genkit Go's `Init`
 * starts the reflection server and writes the runtime file before the app defines its flows
 * and tools, so a call made as soon as the file appears may be answered "action not found"
 * (seen under CI load).
 */
export function genkitGoAppCommand(options: { projectDir: string; binary: string }): { command: string; cwd: string; readyOutput: RegExp } {
  return { command: options.binary, cwd: path.join(options.projectDir, GENKIT_GO_APP_DIR), readyOutput: /genkit-go-app ready/ };
}

/** `go build` of the app into `<projectDir>/.loopscope/genkit-go-app` (≈1 s with a warm build cache, a minute or more cold). */
export async function buildGenkitGoApp(options: { projectDir: string; binary?: string }): Promise<string> {
  const binary = options.binary ?? path.join(options.projectDir, '.loopscope', 'genkit-go-app');
  await promisify(execFile)('go', ['build', '-o', binary, '.'], { cwd: path.join(options.projectDir, GENKIT_GO_APP_DIR), timeout: 600_000, maxBuffer: 8 << 20 });
  return binary;
}
