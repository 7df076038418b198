import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Every OTLP JSON trace recorded by a real run that the repository holds: the example traces
 * (traces/), the graph's fixtures and each runtime's (`*.otlp.json`), as paths from the project root.
 */
export function recordedTraceFiles(): string[] {
  const fixtureFolders = ['lib/graph/__fixtures__', ...readdirSync('lib/runtimes').map((runtime) => path.join('lib/runtimes', runtime, '__fixtures__'))];
  const inFolder = (folder: string, keep: (name: string) => boolean) => {
    try {
      return readdirSync(folder)
        .filter(keep)
        .map((name) => path.join(folder, name));
    } catch {
      return []; // a runtime without fixtures
    }
  };
  return [...inFolder('traces', (name) => name.endsWith('.json')), ...fixtureFolders.flatMap((folder) => inFolder(folder, (name) => name.endsWith('.otlp.json')))];
}
