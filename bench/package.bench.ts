/**
 * Benchmark (not a test): Loopscope as a developer installs it (issue 39 item 4), side by side with
 * what they would install instead — genkit's CLI (`genkit start -- <cmd>`, the Dev UI) and the AI
 * SDK's devtools (`npx @ai-sdk/devtools`). Targets: `npx loopscope start` answers its first
 * request within 5 s, and attaches the same app no slower than `genkit start` does.
 *
 * - Size: the packed tarball of each package itself; what an install adds to a genkit JS project
 *   (the one of lib/install/testing/packed-project.ts, genkit 1.42.0 installed); what it puts in
 *   an empty project (the tool and all its dependencies: what a project without genkit pays).
 * - Install time, from a warm npm cache (`--prefer-offline`, one warm-up install first): into
 *   the genkit project and into an empty one, alternately, the median of BENCH_REPEATS. Loopscope's
 *   one native dependency, better-sqlite3, gets its binary copied as the e2e test does (what
 *   prebuild-install downloads, which this machine cannot: GitHub is out of reach); one install
 *   with its real install script is timed too — here that compiles it with node-gyp.
 * - Start: in the genkit project, `npx loopscope start -- node app.mjs` against `npx genkit
 *   start --non-interactive -- node app.mjs` (and `npx @ai-sdk/devtools`, which attaches no app),
 *   alternately, BENCH_START_REPEATS times (5): from spawn until the server answers (GET / for Loopscope and devtools, genkit's
 *   /api/__health), and until the app's flow is listed (Loopscope's /api/runtimes, genkit's
 *   /api/listActions).
 *
 * Run: `node --import tsx bench/package.bench.ts` (packs the clone first, its prepack building dist/;
 * BENCH_SKIP_BUILD=1 packs the dist/ already built). Needs the npm cache warm for genkit 1.42.0,
 * genkit-cli and @ai-sdk/devtools (the first run downloads them).
 */
import { execFile } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createGenkitProject, installTarball, packLoopscope, startInProject, until, type NativeBinary } from '../lib/install/testing/packed-project';
import { median } from './lib/bench-stats';
import { startBenchResult } from './lib/start-bench-result';

const run = promisify(execFile);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** Starts are quicker and swing more with the load than installs: more of them. */
const START_REPEATS = Number(process.env.BENCH_START_REPEATS ?? 5);
/** One port, used by one start at a time (each ends before the next begins). */
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4795);
const TOKEN = 'bench-token-0123456789';
/** genkit's CLI of the project's genkit (1.42.0), and the AI SDK's devtools as npm has them now. */
const GENKIT_CLI = 'genkit-cli@1.42.0';
const AI_SDK_DEVTOOLS = '@ai-sdk/devtools@0.0.24';
const FIRST_ANSWER_TARGET_MS = 5_000;

const result = startBenchResult('package');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'loopscope-bench-package-'));
const megabytes = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Bytes of the files under a folder, each inode once (npm may hard-link). */
function folderBytes(folder: string): number {
  const seen = new Set<number>();
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const stats = lstatSync(path.join(entry.parentPath, entry.name));
    if (seen.has(stats.ino)) continue;
    seen.add(stats.ino);
    total += stats.size;
  }
  return total;
}

type Tool = 'loopscope' | 'genkit-cli' | 'ai-sdk-devtools';
const TOOLS: Tool[] = ['loopscope', 'genkit-cli', 'ai-sdk-devtools'];

/** Installs a tool into a project and returns the seconds npm took. */
async function install(options: { tool: Tool; project: string; tarball: string; native?: NativeBinary }): Promise<number> {
  if (options.tool === 'loopscope') return (await installTarball({ project: options.project, tarball: options.tarball, native: options.native ?? 'copy' })).seconds;
  return (await installTarball({ project: options.project, tarball: options.tool === 'genkit-cli' ? GENKIT_CLI : AI_SDK_DEVTOOLS, native: 'install-script' })).seconds;
}

/** A copy of the genkit project (genkit installed, nothing else) or an empty one. */
function freshProject(options: { base: string; kind: 'genkit' | 'empty'; name: string }): string {
  const project = path.join(scratch, options.name);
  rmSync(project, { recursive: true, force: true });
  if (options.kind === 'genkit') cpSync(options.base, project, { recursive: true, verbatimSymlinks: true });
  else {
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  }
  return project;
}

async function sizesAndInstalls(options: { base: string; tarball: string }) {
  const baseBytes = folderBytes(path.join(options.base, 'node_modules'));
  const installs: Record<string, { genkitProject: number[]; emptyProject: number[] }> = {};
  const added: Record<string, { genkitProjectMb: number; emptyProjectMb: number }> = {};
  for (const tool of TOOLS) {
    installs[tool] = { genkitProject: [], emptyProject: [] };
    // Warm-up: the npm cache holds every tarball afterwards.
    await install({ tool, project: freshProject({ base: options.base, kind: 'empty', name: `warm-${tool}` }), tarball: options.tarball });
  }
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    for (const tool of TOOLS) {
      for (const kind of ['genkit', 'empty'] as const) {
        const project = freshProject({ base: options.base, kind, name: `${kind}-${tool}` });
        const seconds = await install({ tool, project, tarball: options.tarball });
        installs[tool][kind === 'genkit' ? 'genkitProject' : 'emptyProject'].push(seconds);
        const bytes = folderBytes(path.join(project, 'node_modules')) - (kind === 'genkit' ? baseBytes : 0);
        added[tool] = { ...added[tool], [kind === 'genkit' ? 'genkitProjectMb' : 'emptyProjectMb']: megabytes(bytes) };
        console.log(`  install ${tool} into ${kind === 'genkit' ? 'the genkit project' : 'an empty project'}: ${seconds.toFixed(1)} s, +${megabytes(bytes)} MB`);
      }
    }
  }
  // Loopscope with better-sqlite3's own install script (node-gyp here: prebuild-install cannot reach GitHub).
  const scripted = freshProject({ base: options.base, kind: 'genkit', name: 'genkit-loopscope-script' });
  const withScript = await install({ tool: 'loopscope', project: scripted, tarball: options.tarball, native: 'install-script' });
  console.log(`  install loopscope with better-sqlite3's install script: ${withScript.toFixed(1)} s`);
  return { installs, added, withScript };
}

type StartSample = {
  firstAnswerMs: number;
  attachedMs: number | null;
};

/** One start of a tool in the project: spawn → first answer → the app's flow listed; then Ctrl+C. */
async function startOnce(options: { tool: Tool; project: string; port: number; userData: string }): Promise<StartSample> {
  const base = `http://127.0.0.1:${options.port}`;
  const commands: Record<Tool, { args: string[]; env: Record<string, string>; health: string; actions?: { url: string; headers?: Record<string, string> } }> = {
    loopscope: {
      args: ['loopscope', 'start', '--port', String(options.port), '--', 'node', 'app.mjs'],
      env: { LOOPSCOPE_TOKEN: TOKEN, XDG_DATA_HOME: options.userData },
      health: `${base}/`,
      actions: { url: `${base}/api/runtimes`, headers: { authorization: `Bearer ${TOKEN}` } },
    },
    'genkit-cli': {
      args: ['genkit', 'start', '--non-interactive', '--port', String(options.port), '--', 'node', 'app.mjs'],
      env: { GENKIT_CLI_DISABLE_UPDATE_NOTIFICATIONS: 'true' },
      health: `${base}/api/__health`,
      actions: { url: `${base}/api/listActions` },
    },
    'ai-sdk-devtools': { args: ['@ai-sdk/devtools'], env: { AI_SDK_DEVTOOLS_PORT: String(options.port) }, health: `${base}/` },
  };
  const command = commands[options.tool];
  const started = performance.now();
  const running = startInProject({ project: options.project, command: 'npx', args: command.args, env: command.env });
  try {
    await until({ what: `${options.tool} to answer`, probe: async () => ((await fetch(command.health)).ok ? true : undefined) });
    const firstAnswerMs = performance.now() - started;
    let attachedMs: number | null = null;
    if (command.actions) {
      const { url, headers } = command.actions;
      await until({ what: `${options.tool} to list the app's flow`, probe: async () => ((await (await fetch(url, { headers })).text()).includes('/flow/weatherFlow') ? true : undefined) });
      attachedMs = performance.now() - started;
    }
    return { firstAnswerMs, attachedMs };
  } catch (error) {
    throw new Error(`${options.tool}: ${error instanceof Error ? error.message : String(error)}\n${running.output()}`, { cause: error });
  } finally {
    await running.interrupt();
  }
}

async function starts(options: { base: string; tarball: string }) {
  const projects: Record<Tool, string> = {
    loopscope: freshProject({ base: options.base, kind: 'genkit', name: 'start-loopscope' }),
    'genkit-cli': freshProject({ base: options.base, kind: 'genkit', name: 'start-genkit-cli' }),
    'ai-sdk-devtools': freshProject({ base: options.base, kind: 'genkit', name: 'start-devtools' }),
  };
  for (const tool of TOOLS) await install({ tool, project: projects[tool], tarball: options.tarball });
  const samples: Record<Tool, StartSample[]> = { loopscope: [], 'genkit-cli': [], 'ai-sdk-devtools': [] };
  const userData = path.join(scratch, 'user-data');
  // One start each before measuring: npx's lookup and the OS file cache, as on a developer's second run.
  for (const tool of TOOLS) await startOnce({ tool, project: projects[tool], port: BASE_PORT, userData });
  for (let repeat = 0; repeat < START_REPEATS; repeat += 1) {
    for (const tool of TOOLS) {
      const sample = await startOnce({ tool, project: projects[tool], port: BASE_PORT, userData });
      samples[tool].push(sample);
      console.log(`  start ${tool}: first answer ${Math.round(sample.firstAnswerMs)} ms${sample.attachedMs === null ? '' : `, app attached ${Math.round(sample.attachedMs)} ms`}`);
    }
  }
  return samples;
}

try {
  const packed = await packLoopscope({ destination: scratch, skipBuild: process.env.BENCH_SKIP_BUILD === '1' });
  console.log(`npm pack: ${packed.seconds.toFixed(1)} s (${process.env.BENCH_SKIP_BUILD === '1' ? 'dist/ as built' : 'prepack build included'})`);
  const base = path.join(scratch, 'genkit-project');
  await createGenkitProject(base);
  const tarballs: Record<Tool, number> = {
    loopscope: statSync(packed.tarball).size,
    'genkit-cli': 0,
    'ai-sdk-devtools': 0,
  };
  const { installs, added, withScript } = await sizesAndInstalls({ base, tarball: packed.tarball });
  // The other packages' own tarballs (the package alone, no dependencies), from the warm cache.
  for (const [tool, spec] of [
    ['genkit-cli', GENKIT_CLI],
    ['ai-sdk-devtools', AI_SDK_DEVTOOLS],
  ] as const) {
    const destination = path.join(scratch, `tarball-${tool}`);
    mkdirSync(destination);
    await run('npm', ['pack', spec, '--pack-destination', destination, '--prefer-offline'], { cwd: scratch });
    tarballs[tool] = readdirSync(destination).reduce((sum, file) => sum + statSync(path.join(destination, file)).size, 0);
  }
  const startSamples = await starts({ base, tarball: packed.tarball });

  const medianOf = (values: (number | null)[]) => {
    const present = values.filter((value): value is number => value !== null);
    return present.length > 0 ? Math.round(median(present)) : null;
  };
  const numbers = {
    tarballMb: Object.fromEntries(TOOLS.map((tool) => [tool, megabytes(tarballs[tool])])),
    installedMb: added,
    installSeconds: Object.fromEntries(TOOLS.map((tool) => [tool, { genkitProject: median(installs[tool].genkitProject), emptyProject: median(installs[tool].emptyProject) }])),
    loopscopeInstallWithBuildScriptSeconds: withScript,
    firstAnswerMs: Object.fromEntries(TOOLS.map((tool) => [tool, medianOf(startSamples[tool].map((sample) => sample.firstAnswerMs))])),
    attachedMs: Object.fromEntries(TOOLS.filter((tool) => tool !== 'ai-sdk-devtools').map((tool) => [tool, medianOf(startSamples[tool].map((sample) => sample.attachedMs))])),
    samples: Object.fromEntries(TOOLS.map((tool) => [tool, startSamples[tool].map((sample) => ({ firstAnswerMs: Math.round(sample.firstAnswerMs), attachedMs: sample.attachedMs === null ? null : Math.round(sample.attachedMs) }))])),
    repeats: REPEATS,
    startRepeats: START_REPEATS,
    packSeconds: packed.seconds,
  };
  const loopscopeFirst = numbers.firstAnswerMs.loopscope as number;
  const loopscopeAttached = numbers.attachedMs.loopscope as number;
  const genkitAttached = numbers.attachedMs['genkit-cli'] as number;
  const met = loopscopeFirst <= FIRST_ANSWER_TARGET_MS && loopscopeAttached <= genkitAttached;
  console.log('');
  console.log(`tarball: loopscope ${numbers.tarballMb.loopscope} MB, genkit-cli ${numbers.tarballMb['genkit-cli']} MB, @ai-sdk/devtools ${numbers.tarballMb['ai-sdk-devtools']} MB`);
  console.log(`added to a genkit project: loopscope ${added.loopscope.genkitProjectMb} MB, genkit-cli ${added['genkit-cli'].genkitProjectMb} MB, devtools ${added['ai-sdk-devtools'].genkitProjectMb} MB`);
  console.log(`in an empty project: loopscope ${added.loopscope.emptyProjectMb} MB, genkit-cli ${added['genkit-cli'].emptyProjectMb} MB, devtools ${added['ai-sdk-devtools'].emptyProjectMb} MB`);
  console.log(`first answer: loopscope ${loopscopeFirst} ms, genkit start ${numbers.firstAnswerMs['genkit-cli']} ms, devtools ${numbers.firstAnswerMs['ai-sdk-devtools']} ms; app attached: loopscope ${loopscopeAttached} ms, genkit start ${genkitAttached} ms`);
  result.write({
    measures: 'Loopscope installed from its tarball in a genkit JS project against genkit-cli and @ai-sdk/devtools: tarball and installed size, install time (warm npm cache), time from the start command to the first answer and to the app attached',
    numbers,
    summary: `first answer ${loopscopeFirst} ms, app attached ${loopscopeAttached} ms (genkit start: ${genkitAttached} ms); +${added.loopscope.genkitProjectMb} MB in a genkit project (genkit-cli +${added['genkit-cli'].genkitProjectMb} MB), ${numbers.tarballMb.loopscope} MB packed; install ${numbers.installSeconds.loopscope.genkitProject.toFixed(1)} s (genkit-cli ${numbers.installSeconds['genkit-cli'].genkitProject.toFixed(1)} s)`,
    target: `first answer ≤ ${FIRST_ANSWER_TARGET_MS / 1000} s after npx loopscope start; the app attached no slower than genkit start`,
    met,
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
