/**
 * Builds what the npm package ships into dist/ (run by `npm pack` through `prepack`; alone:
 * `npm run build:package`). docs/adr/0010-prebuilt-package.md says why it looks like this.
 *
 * - dist/web/: the Next production build (`next build` with `output: 'standalone'`) and, in
 *   dist/web/node_modules/, the part of Next's runtime (and React) the server needs, as Next's
 *   own file tracing found it — not the `next` package with its compiler (≈340 MB installed).
 * - dist/bin/: the programs (lib/install/entry-points.json: CLI, server, runner) bundled by
 *   esbuild with genkit, the AI SDK and OpenTelemetry inside, in shared chunks with the
 *   built-in example tools (dist/tools/), so those tools and the runner use one genkit.
 * - dist/lib/: the libraries a developer imports (`loopscope`, `loopscope/genkit`,
 *   `loopscope/ai-sdk`), as ESM and CommonJS with types; genkit and `ai` stay imports, resolved
 *   from the developer's project (optional peer dependencies): the plugin must act on the app's
 *   own genkit instance, the AI SDK package on the app's own `ai`. The OpenTelemetry API is
 *   bundled: it reads the process-wide tracer whatever copy asks.
 *
 * Then it checks the result: every package a program or the web app still imports is a Node
 * built-in, a dependency of the package, or (for the web build) shipped beside it; a library may
 * also import a peer dependency.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import entryPoints from '../lib/install/entry-points.json';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const dist = path.join(root, 'dist');
const webDir = path.join(root, entryPoints.web.bundleDir);
/** next build's output for the package (its distDir): not .next, which a running clone server may be using. */
const nextBuildDir = path.join(root, entryPoints.web.buildDir);

/** Packages every install of Loopscope has: its dependencies. The programs and the web app may import these and nothing else. */
const installed = new Set(Object.keys(manifest.dependencies ?? {}));
/**
 * The app's own packages (peer dependencies, optional: genkit, ai): only the libraries a
 * developer's app imports may leave them as imports (the plugin must act on the app's genkit, the
 * AI SDK package on the app's `ai`). The programs bundle their own copy: a project without genkit
 * runs the built-in genkit examples, and a project with another genkit version changes nothing in
 * the runner.
 */
const appPeers = new Set(Object.keys(manifest.peerDependencies ?? {}));
const forLibraries = new Set([...installed, ...appPeers]);
/**
 * What the web server's build may leave as imports without shipping them: genkit's packages, which
 * next.config.js keeps external. The server reaches them only through dynamic imports taken by the
 * command line (lib/runtimes/genkit-js/driver.ts: `answer.here`, `replayHere`, a repro with local
 * tools) and in the runner, never while serving; the AI SDK app test of e2e/package.spec.ts runs
 * the server in a project without genkit. Shipping them would add genkit and its dependencies
 * (≈17 MB, 130 packages) to dist/web for nothing.
 */
const WEB_LAZY_EXTERNALS = new Set(['genkit', '@genkit-ai/core', '@genkit-ai/ai', '@opentelemetry/sdk-node']);
/** Packages imported only on paths the package does not use, left as imports that fail if ever reached (each says why). */
const NOT_SHIPPED: Record<string, string> = {
  // @genkit-ai/core imports it only to turn on Firebase monitoring (enableFirebaseTelemetry), which the runner never does.
  '@genkit-ai/firebase': 'optional Firebase telemetry of genkit',
  // ws and node-fetch try these in a try/catch and go on without them (esbuild leaves such requires as imports).
  bufferutil: "ws's optional native frame masking",
  'utf-8-validate': "ws's optional native UTF-8 check",
  encoding: "node-fetch's optional charset conversion",
  // The @opentelemetry/sdk-node genkit carries requires it in a try/catch, only for OTEL_TRACES_EXPORTER=jaeger.
  '@opentelemetry/exporter-jaeger': "OpenTelemetry's optional Jaeger exporter",
};
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

const log = (message: string) => process.stdout.write(`build-package: ${message}\n`);

/** `lodash/fp` → `lodash`, `@scope/name/x` → `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function nextBuild(): void {
  log('next build (standalone output)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, LOOPSCOPE_PACKAGE_BUILD: '1', NEXT_TELEMETRY_DISABLED: '1' } });
}

/**
 * Turbopack names a server external `better-sqlite3-<hash>` and resolves it through a symlink in
 * the build's node_modules/ to the project's node_modules — a link that means nothing in another
 * folder (and npm does not pack links). The server chunks get the plain package name back, which
 * Node resolves from the developer's node_modules.
 */
function unhashExternals(nextDir: string): void {
  const linksDir = path.join(nextBuildDir, 'node_modules');
  const renames = new Map<string, string>();
  for (const name of existsSync(linksDir) ? readdirSync(linksDir) : []) {
    const link = path.join(linksDir, name);
    if (!lstatSync(link).isSymbolicLink()) continue;
    const target = path.resolve(linksDir, readlinkSync(link));
    renames.set(name, (JSON.parse(readFileSync(path.join(target, 'package.json'), 'utf8')) as { name: string }).name);
  }
  for (const file of filesUnder(path.join(nextDir, 'server')).filter((candidate) => candidate.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8');
    let changed = text;
    for (const [hashed, plain] of renames) changed = changed.split(`"${hashed}`).join(`"${plain}`);
    if (changed !== text) writeFileSync(file, changed);
  }
  log(`server externals renamed back: ${[...renames].map(([hashed, plain]) => `${hashed} → ${plain}`).join(', ') || 'none'}`);
}

/** A bare specifier's package, or undefined for a Node built-in. */
function externalPackage(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0])) return undefined;
  return packageOf(specifier);
}

/**
 * The packages the Next server build loads at run time: Turbopack's externals (`e.x("name", …)`,
 * `e.y(…)`) and the `require("name")` calls left in bundled modules (ajv's generated validators).
 * Turbopack's runtime files are skipped: their comments quote `require("something")`.
 */
function serverBuildPackages(serverDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /(?:\b[a-z]\.[xy]\(|\brequire\()"((?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(?:\/[^"]*)?)"/g;
  for (const file of filesUnder(serverDir).filter((candidate) => candidate.endsWith('.js') && !candidate.includes('[turbopack]_runtime'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const name = externalPackage(match[1]);
      if (name && !found.has(name)) found.set(name, path.relative(root, file));
    }
  }
  return found;
}

/** The packages esbuild left as imports in its outputs (its metafile lists them exactly). */
function bundleImports(metafile: Metafile): Map<string, string> {
  const found = new Map<string, string>();
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    for (const entry of imports) {
      const name = entry.external ? externalPackage(entry.path) : undefined;
      if (name && !found.has(name)) found.set(name, output);
    }
  }
  return found;
}

/**
 * The web build: .next without its caches, maps and traces, and from the standalone output's
 * node_modules the packages the server chunks import, with their dependencies (not their
 * optional ones: sharp is Next's image optimizer, which Loopscope does not use).
 */
function assembleWeb(): void {
  const nextDir = path.join(webDir, entryPoints.web.buildDir);
  mkdirSync(nextDir, { recursive: true });
  const source = nextBuildDir;
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.isFile()) cpSync(path.join(source, entry.name), path.join(nextDir, entry.name));
  }
  const keep = (file: string) => !file.endsWith('.map') && !file.endsWith('.nft.json');
  cpSync(path.join(source, 'server'), path.join(nextDir, 'server'), { recursive: true, filter: keep });
  cpSync(path.join(source, 'static'), path.join(nextDir, 'static'), { recursive: true, filter: keep });
  unhashExternals(nextDir);

  const standaloneModules = path.join(source, 'standalone', 'node_modules');
  const roots = ['next', 'react', 'react-dom', ...serverBuildPackages(path.join(nextDir, 'server')).keys()].filter((name) => !installed.has(name) && !WEB_LAZY_EXTERNALS.has(name) && !(name in NOT_SHIPPED));
  const shipped = new Set<string>();
  const visit = (name: string, from: string) => {
    if (shipped.has(name) || installed.has(name) || WEB_LAZY_EXTERNALS.has(name)) return;
    const folder = path.join(standaloneModules, name);
    if (!existsSync(path.join(folder, 'package.json'))) throw new Error(`the web build needs ${name} (imported by ${from}), which next build's trace did not copy to ${path.relative(root, standaloneModules)}`);
    shipped.add(name);
    const packageJson = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const optionalPeers = new Set(Object.keys((packageJson as { peerDependenciesMeta?: Record<string, unknown> }).peerDependenciesMeta ?? {}));
    for (const dependency of Object.keys(packageJson.dependencies ?? {})) if (existsSync(path.join(standaloneModules, dependency))) visit(dependency, name);
    for (const peer of Object.keys(packageJson.peerDependencies ?? {})) if (!optionalPeers.has(peer) && existsSync(path.join(standaloneModules, peer))) visit(peer, name);
  };
  for (const name of roots) visit(name, 'the server build');
  for (const name of shipped) cpSync(path.join(standaloneModules, name), path.join(webDir, 'node_modules', name), { recursive: true, filter: keep });
  writeFileSync(path.join(webDir, 'package.json'), `${JSON.stringify({ private: true, description: "Loopscope's prebuilt web app and the part of Next's runtime it needs (scripts/build-package.ts)." }, null, 2)}\n`);
  log(`web: ${shipped.size} runtime packages (${[...shipped].sort().join(', ')})`);
}

/** `require`, `__filename` and `__dirname` for the CommonJS packages inside an ESM bundle (genkit's dependencies call them). */
const ESM_BANNER = [
  "import { createRequire as __loopscopeCreateRequire } from 'node:module';",
  "import { fileURLToPath as __loopscopeFileURLToPath } from 'node:url';",
  'const require = __loopscopeCreateRequire(import.meta.url);',
  'const __filename = __loopscopeFileURLToPath(import.meta.url);',
  "const __dirname = __loopscopeFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

// Whitespace and syntax minified, names kept: a stack trace from a developer's machine still reads.
const COMMON: BuildOptions = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none', sourcemap: false, minifyWhitespace: true, minifySyntax: true };

/** An esbuild entry name (its output path in dist/, without `.js`) for a bundle path of entry-points.json. */
const entryName = (bundlePath: string) => path.relative('dist', bundlePath);

/** The tool modules of tools/ (genkit's and tools/ai-sdk/'s), not their tests nor tools/go/. */
function toolEntries(): Record<string, string> {
  const toolsDir = path.join(root, entryPoints.builtInTools.source);
  const entries: Record<string, string> = {};
  for (const file of filesUnder(toolsDir)) {
    const relative = path.relative(toolsDir, file);
    if (!/\.(ts|mts)$/.test(relative) || /\.(test|spec)\.|\.d\.ts$/.test(relative) || relative.split(path.sep)[0] === 'go') continue;
    entries[entryName(path.join(entryPoints.builtInTools.bundleDir, relative.replace(/\.(ts|mts)$/, '')))] = file;
  }
  return entries;
}

/** What each esbuild run left as imports, and the packages it may import, checked at the end. */
const bundleExternals: { imports: Map<string, string>; allowed: Set<string> }[] = [];

async function bundlePrograms(): Promise<void> {
  const programs = Object.fromEntries(Object.entries(entryPoints.programs.sources).map(([name, source]) => [entryName(path.join(entryPoints.programs.bundleDir, name)), path.join(root, source)]));
  const result = await build({
    ...COMMON,
    metafile: true,
    entryPoints: { ...programs, ...toolEntries() },
    outdir: dist,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    external: [...installed, ...Object.keys(NOT_SHIPPED)],
    banner: { js: ESM_BANNER },
  });
  bundleExternals.push({ imports: bundleImports(result.metafile), allowed: installed });
  // The example scenarios, beside the example tools as in tools/.
  cpSync(path.join(root, entryPoints.builtInTools.source, 'scenarios'), path.join(root, entryPoints.builtInTools.bundleDir, 'scenarios'), { recursive: true });
  log(`programs: ${Object.keys(programs).join(', ')} and ${Object.keys(toolEntries()).length} example tool modules`);
}

async function bundleLibraries(): Promise<void> {
  const libraries = Object.entries(entryPoints.libraries.sources);
  const outdir = path.join(root, entryPoints.libraries.bundleDir);
  for (const [name, source] of libraries) {
    for (const format of ['esm', 'cjs'] as const) {
      const result = await build({
        ...COMMON,
        metafile: true,
        entryPoints: [path.join(root, source)],
        outfile: path.join(outdir, `${name}.${format === 'esm' ? 'js' : 'cjs'}`),
        format,
        external: [...forLibraries],
        // A CommonJS file has no import.meta: its URL comes from __filename. An ES module has no
        // require: the CommonJS packages bundled inside (OpenTelemetry's context manager requires
        // async_hooks) get one, as the programs do.
        ...(format === 'cjs' ? { define: { 'import.meta.url': '__loopscopeImportMetaUrl' }, banner: { js: "const __loopscopeImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" } } : { banner: { js: ESM_BANNER } }),
      });
      bundleExternals.push({ imports: bundleImports(result.metafile), allowed: forLibraries });
    }
  }
  writeLibraryTypes(libraries);
  log(`libraries: ${libraries.map(([name]) => name).join(', ')} (ESM, CommonJS, types)`);
}

/**
 * Declarations of the libraries. tsc writes them for every source the entries reach (into a
 * scratch folder: an internal module whose inferred types tsc cannot name, like genkit's nested
 * zod, fails only its own declaration file); dist/lib/types/ keeps the ones the entries' public
 * types reach, in the source tree's shape, and each library gets a `<name>.d.ts` and `.d.cts`
 * re-exporting its own. The package test compiles a TypeScript app against them.
 */
function writeLibraryTypes(libraries: [string, string][]): void {
  const scratch = path.join(dist, '.types-scratch');
  const tsc = path.join(root, 'node_modules/typescript-6/bin/tsc');
  const options = ['--ignoreConfig', '--declaration', '--emitDeclarationOnly', '--lib', 'ES2023', '--types', 'node', '--skipLibCheck', '--strict', '--target', 'ES2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--resolveJsonModule', '--esModuleInterop', '--allowImportingTsExtensions', '--rootDir', root, '--outDir', scratch];
  try {
    execFileSync(process.execPath, [tsc, ...options, ...libraries.map(([, source]) => path.join(root, source))], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    // Emitted anyway; whatever an entry's public types reach is checked below.
    void error;
  }
  const typesDir = path.join(root, entryPoints.libraries.bundleDir, 'types');
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    if (!existsSync(file)) throw new Error(`tsc wrote no ${path.relative(root, file)}: a library's public types need it`);
    reached.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), match[1].replace(/\.(js|ts)$/, ''));
      visit(existsSync(`${target}.d.ts`) ? `${target}.d.ts` : path.join(target, 'index.d.ts'));
    }
  };
  for (const [, source] of libraries) visit(path.join(scratch, source.replace(/\.ts$/, '.d.ts')));
  for (const file of reached) cpSync(file, path.join(typesDir, path.relative(scratch, file)));
  rmSync(scratch, { recursive: true, force: true });
  // Module format of the declaration files: CommonJS, which both an ESM and a CJS consumer may import types from.
  writeFileSync(path.join(typesDir, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  for (const [name, source] of libraries) {
    // With the extension: an ESM consumer under nodenext resolves nothing without one.
    const target = `./types/${source.replace(/\.ts$/, '.js')}`;
    for (const extension of ['d.ts', 'd.cts']) writeFileSync(path.join(root, entryPoints.libraries.bundleDir, `${name}.${extension}`), `export * from '${target}';\n`);
  }
  // They must compile against nothing but the peers' own types (errors inside a peer's own
  // declarations, like dotprompt's, are not ours to fix: only errors in ours count).
  const shipped = [...reached].map((file) => path.join(typesDir, path.relative(scratch, file)));
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '--ignoreConfig', '--noEmit', '--pretty', 'false', '--strict', '--lib', 'ES2023', '--types', 'node', '--module', 'nodenext', '--moduleResolution', 'nodenext', ...shipped], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    output = String((error as { stdout?: unknown }).stdout ?? '');
  }
  const ours = output.split('\n').filter((line) => line.startsWith(path.relative(root, typesDir)) || line.startsWith(typesDir));
  if (ours.length > 0) throw new Error(`the libraries' declarations do not compile:\n${ours.join('\n')}`);
}

/** Fails the build when a bundle imports a package the developer's install would not have. */
function checkImports(): void {
  const problems: string[] = [];
  for (const { imports, allowed } of bundleExternals) {
    for (const [name, file] of imports) {
      if (allowed.has(name) || name in NOT_SHIPPED) continue;
      problems.push(appPeers.has(name) ? `${file} imports ${name}, the app's own package (an optional peer dependency, absent from a project without it): only the libraries may` : `${file} imports ${name}, which the package neither bundles nor declares`);
    }
  }
  for (const [name, file] of serverBuildPackages(path.join(webDir, entryPoints.web.buildDir, 'server'))) {
    if (!installed.has(name) && !WEB_LAZY_EXTERNALS.has(name) && !(name in NOT_SHIPPED) && !existsSync(path.join(webDir, 'node_modules', name, 'package.json'))) problems.push(`${file} imports ${name}, which dist/web/node_modules does not have`);
  }
  const binaries = filesUnder(dist).filter((file) => file.endsWith('.node'));
  for (const file of binaries) problems.push(`${path.relative(root, file)} is a native binary: it would only run on ${process.platform}-${process.arch}`);
  if (problems.length > 0) throw new Error(`the package would not run elsewhere:\n  ${problems.join('\n  ')}`);
}

function sizeOf(folder: string): number {
  return filesUnder(folder).reduce((total, file) => total + statSync(file).size, 0);
}

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
if (!process.argv.includes('--skip-next-build')) nextBuild();
assembleWeb();
await bundlePrograms();
await bundleLibraries();
checkImports();
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/ ${megabytes(sizeOf(dist))} (web ${megabytes(sizeOf(webDir))}, of it Next's runtime ${megabytes(sizeOf(path.join(webDir, 'node_modules')))})`);
