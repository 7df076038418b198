/**
 * Loads typescript-eslint on the TypeScript 6 compiler API while the project compiles with
 * TypeScript 7.
 *
 * TypeScript 7 (the native compiler) ships no JavaScript compiler API; typescript-eslint
 * parses with that API and refuses TypeScript >= 6.1 (typescript-eslint issue #10940, "blocked
 * by external API"). The project keeps `typescript` at 7 for `tsc` and `next build`, and
 * installs TypeScript 6 under the alias `typescript-6` for the linter alone.
 *
 * Why not the TypeScript team's `@typescript/typescript6` package: it depends on a hoisted
 * `typescript@6` copy whose `tsc` bin wins npm's bin linking (sorted by path,
 * `node_modules/@typescript/old` < `node_modules/typescript`), so `npx tsc` became 6.0.
 * `node_modules/typescript-6` sorts after `node_modules/typescript`, so 7 keeps `tsc`
 * (lib/layer-boundaries.test.ts checks it).
 *
 * package.json's `overrides` lets typescript-eslint's peer range accept the project's
 * `typescript`; here every `require('typescript')` made from typescript-eslint's own files is
 * answered with `typescript-6`, and nothing else in the process is touched.
 */
import Module, { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const HOOKED = Symbol.for('loopscope.typescript-6-for-typescript-eslint');

/** The packages that call `require('typescript')` on typescript-eslint's behalf. */
const TYPESCRIPT_ESLINT_FILE = /[\\/]node_modules[\\/](?:@typescript-eslint[\\/]|typescript-eslint[\\/]|ts-api-utils[\\/])/;

function answerTypescriptWithVersion6() {
  if (Module[HOOKED]) return;
  const resolveFilename = Module._resolveFilename;
  // eslint-disable-next-line max-params -- replaces Node's Module._resolveFilename, whose signature it keeps
  Module._resolveFilename = function resolveTypescript6(request, parent, ...rest) {
    // `typescript` and its subpaths (`typescript/lib/tsserverlibrary` for the project service).
    if ((request === 'typescript' || request.startsWith('typescript/')) && parent?.filename && TYPESCRIPT_ESLINT_FILE.test(parent.filename)) {
      return require.resolve(`typescript-6${request.slice('typescript'.length)}`);
    }
    return resolveFilename.call(this, request, parent, ...rest);
  };
  Module[HOOKED] = true;
}

/**
 * The `typescript-eslint` module (its default export: `configs`, `parser`, `plugin`), loaded
 * so that it runs on TypeScript 6.
 * @returns {Promise<typeof import('typescript-eslint').default>}
 */
export async function loadTypescriptEslint() {
  answerTypescriptWithVersion6();
  return (await import('typescript-eslint')).default;
}
