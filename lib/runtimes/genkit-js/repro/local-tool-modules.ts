/**
 * `loopscope repro --local-tools` for genkit JS: the modules of a tools folder that define the
 * recorded tools, learned by loading them once in a scratch genkit instance, with the import path
 * the written program uses for each.
 */
import path from 'node:path';
import type { LocalToolModule } from './export-repro';

/** An import path from `fromDirectory` to `file`, as TypeScript writes one (`./tools/bank`: no extension, which tsc would refuse). */
function importPath(fromDirectory: string, file: string): string {
  const relative = path.relative(fromDirectory, file).split(path.sep).join('/').replace(/\.(ts|mts|js|mjs)$/, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

export async function localToolModules({ toolsDirectory, fromDirectory, recorded, warn }: { toolsDirectory: string; fromDirectory: string; recorded: ReadonlySet<string>; warn: (text: string) => void }): Promise<LocalToolModule[]> {
  const [{ genkit }, { loadToolModules }] = await Promise.all([import('genkit/beta'), import('../run/load-tools')]);
  const loaded = await loadToolModules(genkit({}), toolsDirectory);
  for (const problem of loaded.problems) warn(`loopscope: tools/${problem.file}: ${problem.message}\n`);
  const byFile = new Map<string, string[]>();
  for (const tool of loaded.tools) {
    if (recorded.has(tool.name)) byFile.set(tool.file, [...(byFile.get(tool.file) ?? []), tool.name]);
  }
  const missing = [...recorded].filter((name) => !loaded.tools.some((tool) => tool.name === name));
  if (missing.length > 0) warn(`loopscope: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not defined in ${toolsDirectory}: stubbed from the recording.\n`);
  return [...byFile].map(([file, tools]) => ({ importPath: importPath(fromDirectory, path.join(toolsDirectory, file)), tools }));
}
