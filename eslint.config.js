/**
 * ESLint (flat config): real problems only — layer boundaries, React hook rules, unused code,
 * and core checks that catch bugs — plus the one docs/style.md rule a parser checks exactly: no
 * function takes more than two parameters. Formatting is not linted.
 *
 *   npm run lint
 *
 * Parsing only, no type information: typed rules (no-floating-promises) need a TypeScript
 * program of the whole project per run, which costs more than the rest of the lint together.
 */
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { layerBoundaries } from './scripts/eslint/layer-boundaries.js';
import { loadTypescriptEslint } from './scripts/eslint/load-typescript-eslint.js';

const tseslint = await loadTypescriptEslint();

/** Core rules that report bugs, not taste (each is in eslint:recommended). */
const CORRECTNESS = {
  'for-direction': 'error',
  'no-async-promise-executor': 'error',
  'no-compare-neg-zero': 'error',
  'no-cond-assign': 'error',
  'no-constant-binary-expression': 'error',
  'no-debugger': 'error',
  'no-dupe-else-if': 'error',
  'no-duplicate-case': 'error',
  'no-empty-pattern': 'error',
  'no-fallthrough': 'error',
  'no-invalid-regexp': 'error',
  'no-loss-of-precision': 'error',
  'no-self-assign': 'error',
  'no-self-compare': 'error',
  'no-sparse-arrays': 'error',
  'no-unreachable': 'error',
  'no-unsafe-finally': 'error',
  'no-unsafe-negation': 'error',
  'no-unsafe-optional-chaining': 'error',
  'no-unused-private-class-members': 'error',
  'no-useless-backreference': 'error',
  'require-yield': 'error',
  'use-isnan': 'error',
  'valid-typeof': 'error',
};

/** Unused variables and imports; `_name` marks a deliberately unused one. */
const UNUSED = {
  args: 'after-used',
  argsIgnorePattern: '^_',
  varsIgnorePattern: '^_',
  caughtErrors: 'all',
  caughtErrorsIgnorePattern: '^_',
  destructuredArrayIgnorePattern: '^_',
  ignoreRestSiblings: true,
};

export default [
  {
    ignores: ['node_modules/', '.next/', '.next-package/', 'dist/', '.loopscope/', '.loopscope-e2e/', '.loopscope-test/', 'traces/', 'test-results/', 'playwright-report/', 'bench/results/', 'next-env.d.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
    rules: { ...CORRECTNESS, 'no-undef': 'error', 'no-unused-vars': ['error', UNUSED] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // TypeScript itself reports undefined names (and knows type-only globals, which no-undef does not).
    rules: { ...CORRECTNESS, '@typescript-eslint/no-unused-vars': ['error', UNUSED] },
  },
  {
    files: ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    // Tests and their helpers (testing/) may drive a layer through a higher one (the runner
    // through the server's supervisor): no module imports them, so they add no dependency between
    // layers. A module importing a testing/ helper upward is still caught. Fixture generators are
    // not here: they live in scripts/fixtures/, above lib/.
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    plugins: { loopscope: { rules: { 'layer-boundaries': layerBoundaries } } },
    rules: { 'loopscope/layer-boundaries': 'error' },
  },
  {
    // The fixture generators (scripts/fixtures/) sit above lib/: they import lib/, and nothing in
    // lib/, components/ or app/ imports them — tests included (a generator runs when imported).
    files: ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)scripts/fixtures(/|$)', message: 'Fixture generators (scripts/fixtures/) sit above lib/: they import lib/, never the other way (npm run fixtures runs them).' }] }],
    },
  },
  {
    // docs/style.md: "Functions with more than two inputs take one named-object parameter" (a
    // destructured object counts as one). Tests and fixtures are not held to it. A signature
    // another library defines (genkit's middleware hooks, Node's resolver) and the (a, b,
    // options) shape of Error and fs.writeFile keep theirs, each under a disable comment
    // saying why (lib/max-params-rule.test.ts lists them).
    files: ['{lib,components,app,scripts,bench}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/__fixtures__/**'],
    rules: { '@typescript-eslint/max-params': ['error', { max: 2 }] },
  },
  {
    files: ['{lib,components,app,scripts,bench}/**/*.{js,mjs,cjs}'],
    ignores: ['**/__fixtures__/**'],
    rules: { 'max-params': ['error', 2] },
  },
  {
    files: ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
];
