/**
 * ESLint rule `loopscope/layer-boundaries`: the layers of lib/ import only downward.
 *
 * One table (LIB_LAYERS) holds the order, bottom first: a layer may import itself and the
 * layers before it, never one after it. components/ may import only the pure layers, never
 * lib/server or lib/runner; lib/ never imports app/ or components/. app/ is a thin shell
 * over lib/server and may import anything.
 *
 * Why a rule of our own rather than `no-restricted-imports` patterns: it resolves every
 * specifier (relative at any depth, the `@/` alias of tsconfig.json) to the folder it lands
 * in, so a message names both layers, and it also sees `import()`, `require()`, `export …
 * from` and `import('…').Type`, which `no-restricted-imports` does not.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder (this file is scripts/eslint/layer-boundaries.js). */
const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * lib's layers, bottom first: `lib/<x>` is the folder lib/x/ (or the file lib/x.ts). Any other
 * file directly in lib/ (lib/index.ts) is the library entry, above every layer; a lib/ folder
 * missing here is an error until it is placed.
 */
export const LIB_LAYERS = [
  'lib/errors',
  'lib/spans',
  'lib/contract',
  'lib/loop',
  'lib/runtimes (read)',
  'lib/store',
  'lib/graph',
  'lib/replay',
  // Where Loopscope's own files and data folders are (a clone or the installed package): imports no other layer.
  'lib/install',
  'lib/runner',
  'lib/runtimes',
  'lib/server',
  'lib/cli',
  'lib (entry)',
];

/** What components/ may import from lib/: view models and pure helpers, nothing server-side. */
export const COMPONENT_IMPORTS = ['lib/errors', 'lib/spans', 'lib/contract', 'lib/loop', 'lib/runtimes (read)', 'lib/graph'];

/**
 * Layers that know no runtime (docs/architecture.md): of lib/runtimes they import only the files
 * directly in it — the registry and the runtime-free code that asks it — never a runtime's
 * folder, nor a shared reading folder. What they need of a runtime comes through a seam the
 * runtime implements (the runner's: lib/runner/runner-engine.ts).
 */
export const RUNTIME_FREE_LAYERS = ['lib/graph', 'lib/replay', 'lib/runner'];

const RULE_SOURCE = 'scripts/eslint/layer-boundaries.js';
const UNPLACED = 'in no layer';

/** `a/b/c` is `a/b` itself or inside it. */
function isWithin(relative, folder) {
  return relative === folder || relative.startsWith(`${folder}/`);
}

const layerIndex = (name) => LIB_LAYERS.indexOf(name);

/**
 * The area of a project-relative path (a file, or an import target without its extension):
 * a lib layer's name, `components`, `app`, `lib/<x> (in no layer)`, or undefined outside
 * them (scripts, e2e, bench, tools: no layer rule).
 */
export function areaOf(relative) {
  if (isWithin(relative, 'components')) return 'components';
  if (isWithin(relative, 'app')) return 'app';
  const segments = relative.split('/');
  if (segments[0] !== 'lib' || segments.length < 2) return undefined;
  if (segments.length === 2) {
    // lib/errors.ts, lib/errors (an import), lib/spans (a folder's index), lib/index.ts
    const named = `lib/${segments[1].split('.')[0]}`;
    return layerIndex(named) >= 0 ? named : 'lib (entry)';
  }
  const folder = `lib/${segments[1]}`;
  if (folder === 'lib/runtimes' && isRuntimeReading(segments.slice(2))) return 'lib/runtimes (read)';
  return layerIndex(folder) >= 0 ? folder : `${folder} (${UNPLACED})`;
}

/**
 * The reading half of lib/runtimes, browser-safe and below the graph: the registry of runtimes
 * (`lib/runtimes/index.ts`, their dialects and views), what reads spans by that list
 * (`lib/runtimes/<file>.ts` named in RUNTIME_READING_FILES), each runtime's `read/` and `view/`
 * folders, and the shared reading folders (conventions and readers several runtimes use). The
 * rest of a runtime's folder (run/, replay/, repro/, its driver) acts, in Node, above the runner.
 */
const RUNTIME_READING_FILES = ['index', 'classify-span', 'open-spans', 'validate-resume'];
const SHARED_READING_FOLDERS = ['genai-loop', 'openinference', 'python-values', 'genkit-reflection'];
function isRuntimeReading(rest) {
  if (rest.length === 1) return RUNTIME_READING_FILES.includes(rest[0].replace(/\.(ts|tsx)$/, ''));
  if (SHARED_READING_FOLDERS.includes(rest[0])) return true;
  return rest.length >= 2 && (rest[1] === 'read' || rest[1] === 'view' || rest[1] === 'view.ts' || rest[1] === 'view');
}

/** True when a project-relative import target is in a folder of lib/runtimes (a runtime's, or a shared one), or is such a folder. */
function isInRuntimeFolder(relative) {
  const segments = relative.split('/');
  if (segments[0] !== 'lib' || segments[1] !== 'runtimes' || segments.length < 3) return false;
  if (segments.length > 3) return true;
  // `lib/runtimes/toy` is the folder (its index), `lib/runtimes/open-spans` the file.
  return statSync(path.join(PROJECT_DIR, relative), { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The project-relative path an import specifier lands on, or undefined for a package. */
function targetOf(specifier, filename) {
  let absolute;
  if (specifier.startsWith('@/')) absolute = path.join(PROJECT_DIR, specifier.slice(2));
  else if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) absolute = path.resolve(path.dirname(filename), specifier);
  else return undefined;
  const relative = path.relative(PROJECT_DIR, absolute).split(path.sep).join('/');
  return relative.startsWith('..') ? undefined : relative;
}

/** Why `from` may not import `to` (a clause for the message), or undefined when it may. */
function refusal(from, to) {
  if (from === to || from === 'app' || to === undefined) return undefined;
  if (from === 'components') {
    if (to === 'components' || COMPONENT_IMPORTS.includes(to)) return undefined;
    if (to === 'app') return 'components/ never import app/';
    return `components/ run in the browser and may import only ${COMPONENT_IMPORTS.join(', ')}`;
  }
  if (to === 'components' || to === 'app') return `lib/ is framework-free and never imports ${to}/`;
  if (to.endsWith(`(${UNPLACED})`)) return `${to.split(' ')[0]} is ${UNPLACED} yet`;
  const fromIndex = layerIndex(from);
  if (layerIndex(to) <= fromIndex) return undefined;
  const below = LIB_LAYERS.slice(0, fromIndex);
  return `layers import only downward, and ${from} may import only ${below.length ? below.join(', ') : 'itself'}`;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layerBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'lib/ layers import only downward; components/ never import server-side lib/ code' },
    schema: [],
    messages: {
      upward: "{{from}} must not import {{to}} ('{{specifier}}'): {{why}} (layer table: {{source}}).",
      unplaced: '{{folder}} is in no layer: add it to LIB_LAYERS in {{source}} so its imports can be checked.',
      runtimeFolder:
        "{{from}} must not import {{target}} ('{{specifier}}'): {{from}} knows no runtime, so of lib/runtimes it imports only the files directly in it, never a runtime's folder; a runtime gives it what it needs through a seam (runtime-free layers: {{source}}).",
    },
  },
  create(context) {
    const filename = context.filename;
    const relative = path.relative(PROJECT_DIR, filename).split(path.sep).join('/');
    const from = areaOf(relative);
    if (from === undefined || from === 'app') return {};
    if (from.endsWith(`(${UNPLACED})`)) {
      return {
        Program: (node) => context.report({ node, messageId: 'unplaced', data: { folder: from.split(' ')[0], source: RULE_SOURCE } }),
      };
    }

    function check(source) {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = targetOf(source.value, filename);
      if (target === undefined) return;
      const to = areaOf(target);
      const why = refusal(from, to);
      if (why) context.report({ node: source, messageId: 'upward', data: { from, specifier: source.value, to, why, source: RULE_SOURCE } });
      else if (RUNTIME_FREE_LAYERS.includes(from) && isInRuntimeFolder(target)) {
        context.report({ node: source, messageId: 'runtimeFolder', data: { from, specifier: source.value, target, source: RULE_SOURCE } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `import('…').Type`: typescript-eslint 8.x names the specifier `source` (`argument` before).
      TSImportType: (node) => check(node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) check(node.arguments[0]);
      },
    };
  },
};
